// A strict reader of Prometheus text format 0.0.4, for tests: it throws on anything a scraper could misread
// (a sample before its family's # TYPE, a family split in two, a bad name or escape, a repeated series, a
// histogram whose buckets are not cumulative or lack +Inf), where lenient parsers accept broken text.
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: "counter" | "gauge" | "histogram" | "summary" | "untyped";
  help?: string;
  samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;
const TYPES = new Set(["counter", "gauge", "histogram", "summary", "untyped"]);

function fail(lineNumber: number, line: string, why: string): never {
  throw new Error(`line ${lineNumber}: ${why}: ${JSON.stringify(line)}`);
}

/** The family a sample name belongs to (a histogram's _bucket/_sum/_count, a summary's _sum/_count). */
function familyOf(name: string, families: Map<string, Family>): Family | undefined {
  if (families.has(name)) return families.get(name);
  for (const suffix of ["_bucket", "_sum", "_count"]) {
    if (!name.endsWith(suffix)) continue;
    const family = families.get(name.slice(0, -suffix.length));
    if (family && (family.type === "histogram" || (family.type === "summary" && suffix !== "_bucket"))) return family;
  }
  return undefined;
}

/** A value as Prometheus reads it (Go's ParseFloat: NaN and Inf in any case, as prom-client writes "Nan"). */
function parseValue(text: string): number | null {
  if (/^\+?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text) ? Number(text) : null;
}

/** `{a="1",b="x\"y"}` → labels, with only the three escapes the format has. */
function parseLabels(text: string, lineNumber: number, line: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let i = 0;
  while (i < text.length) {
    const eq = text.indexOf("=", i);
    if (eq === -1) fail(lineNumber, line, "label without =");
    const name = text.slice(i, eq);
    if (!LABEL_NAME.test(name) || name.startsWith("__")) fail(lineNumber, line, `bad label name ${name}`);
    if (name in labels) fail(lineNumber, line, `label ${name} twice`);
    if (text[eq + 1] !== '"') fail(lineNumber, line, "label value not quoted");
    let value = "";
    let j = eq + 2;
    for (; j < text.length && text[j] !== '"'; j++) {
      if (text[j] === "\\") {
        const next = text[++j];
        if (next === "\\") value += "\\";
        else if (next === '"') value += '"';
        else if (next === "n") value += "\n";
        else fail(lineNumber, line, `bad escape \\${next}`);
      } else if (text[j] === "\n") fail(lineNumber, line, "raw newline in a label value");
      else value += text[j];
    }
    if (j >= text.length) fail(lineNumber, line, "unterminated label value");
    labels[name] = value;
    i = j + 1;
    if (text[i] === ",") i++;
    else if (i < text.length) fail(lineNumber, line, "labels not separated by commas");
  }
  return labels;
}

export function parsePrometheusText(text: string): Map<string, Family> {
  if (text !== "" && !text.endsWith("\n")) throw new Error("the text does not end with a newline");
  const families = new Map<string, Family>();
  const finished = new Set<string>();
  const series = new Set<string>();
  let current: Family | undefined;
  const lines = text.split("\n").slice(0, -1);
  lines.forEach((line, index) => {
    const n = index + 1;
    if (line === "") return;
    if (line.startsWith("#")) {
      const parts = /^# (HELP|TYPE) (\S+) ?(.*)$/.exec(line);
      if (!parts) return; // a plain comment
      const [, keyword, name, rest] = parts;
      if (!METRIC_NAME.test(name)) fail(n, line, "bad metric name");
      if (keyword === "TYPE") {
        if (!TYPES.has(rest)) fail(n, line, "unknown type");
        if (families.get(name)?.samples.length || finished.has(name)) fail(n, line, "# TYPE after the family's samples");
        if (families.has(name) && families.get(name)!.type !== "untyped") fail(n, line, "# TYPE twice");
        const family = families.get(name) ?? { name, type: "untyped" as const, samples: [] };
        family.type = rest as Family["type"];
        families.set(name, family);
      } else {
        if (/\\[^\\n]/.test(rest)) fail(n, line, "bad escape in HELP");
        const family = families.get(name) ?? { name, type: "untyped" as const, samples: [] };
        if (family.help !== undefined) fail(n, line, "# HELP twice");
        family.help = rest;
        families.set(name, family);
      }
      if (current && current.name !== name) finished.add(current.name);
      current = families.get(name);
      return;
    }
    const match = /^([^\s{]+)(?:\{(.*)\})?\s+(\S+)(?:\s+(-?\d+))?$/.exec(line);
    if (!match) fail(n, line, "not a sample line");
    const [, name, labelText, valueText] = match;
    if (!METRIC_NAME.test(name)) fail(n, line, "bad metric name");
    const family = familyOf(name, families);
    if (!family) fail(n, line, "sample before its family's # TYPE");
    if (finished.has(family.name) || (current && current !== family)) fail(n, line, "family interleaved with another");
    current = family;
    const labels = labelText ? parseLabels(labelText, n, line) : {};
    const value = parseValue(valueText);
    if (value === null) fail(n, line, "bad value");
    const key = `${name}{${Object.entries(labels).sort().map(([k, v]) => `${k}=${JSON.stringify(v)}`).join(",")}}`;
    if (series.has(key)) fail(n, line, "series repeated");
    series.add(key);
    if (family.type === "counter" && !(value >= 0)) fail(n, line, "a counter below zero");
    if (family.type === "histogram" && name.endsWith("_bucket") && !("le" in labels)) fail(n, line, "a bucket without le");
    family.samples.push({ name, labels, value });
  });
  for (const family of families.values()) if (family.type === "histogram") checkHistogram(family);
  return families;
}

/** Per series: buckets ascending by le, cumulative, ending at +Inf equal to _count, with a _sum. */
function checkHistogram(family: Family): void {
  const groups = new Map<string, { buckets: Sample[]; count?: number; sum?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const key = JSON.stringify(Object.entries(rest).sort());
    const group = groups.get(key) ?? { buckets: [] };
    groups.set(key, group);
    if (sample.name.endsWith("_bucket")) group.buckets.push({ ...sample, labels: { le } });
    else if (sample.name.endsWith("_count")) group.count = sample.value;
    else if (sample.name.endsWith("_sum")) group.sum = sample.value;
  }
  for (const [key, group] of groups) {
    const bounds = group.buckets.map((bucket) => parseValue(bucket.labels.le));
    if (bounds.some((bound) => bound === null || Number.isNaN(bound))) throw new Error(`${family.name} ${key}: a bad le`);
    for (let i = 1; i < group.buckets.length; i++) {
      if (!(bounds[i]! > bounds[i - 1]!)) throw new Error(`${family.name} ${key}: le not ascending`);
      if (group.buckets[i].value < group.buckets[i - 1].value) throw new Error(`${family.name} ${key}: buckets not cumulative`);
    }
    if (bounds.at(-1) !== Infinity) throw new Error(`${family.name} ${key}: no +Inf bucket`);
    if (group.count === undefined || group.sum === undefined) throw new Error(`${family.name} ${key}: no _count or _sum`);
    if (group.buckets.at(-1)!.value !== group.count) throw new Error(`${family.name} ${key}: +Inf bucket differs from _count`);
  }
}

/** The value of one series (0 when the series is absent), e.g. value(f, "latchkey_sign_ins_total", {method: "password", outcome: "success"}). */
export function seriesValue(families: Map<string, Family>, name: string, labels: Record<string, string> = {}): number {
  const family = familyOf(name, families);
  const sample = family?.samples.find(
    (s) => s.name === name && Object.keys(labels).length === Object.keys(s.labels).length && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
  );
  return sample?.value ?? 0;
}
