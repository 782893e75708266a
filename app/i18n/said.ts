// English sentences the code itself writes (a form field's rule from the shared zod schemas, a refusal's words from
// page-messages, a flash after a redirect) read in the page's language where they are shown: the English catalog's
// "said.*" messages are the patterns, so "Use at least 8 characters." is found as `said.field.passwordMin` with
// {min} = 8 and said in German. The JSON API, which shares the schemas, keeps its English (ADR 072). Browser and
// server run the same code, so a field message reads the same whoever finds the problem.
import { IntlMessageFormat } from "intl-messageformat";
import type { Messages, Values } from "~/i18n/message-types";

type Element = { type: number; value?: string; options?: Record<string, { value: Element[] }>; children?: Element[] };

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A message's English as a regular expression, with the argument each capture group fills; null if not reversible. */
function patternOf(message: string): { regex: RegExp; captures: { name: string; numeric: boolean }[] } | null {
  const captures: { name: string; numeric: boolean }[] = [];
  const walk = (elements: Element[], pound: string | null): string | null => {
    let source = "";
    for (const element of elements) {
      switch (element.type) {
        case 0:
          source += escape(element.value ?? "");
          break;
        case 1:
          captures.push({ name: element.value!, numeric: false });
          source += "(.+?)";
          break;
        case 2:
          captures.push({ name: element.value!, numeric: true });
          source += "(\\d[\\d.,]*)";
          break;
        case 7:
          if (!pound) return null;
          captures.push({ name: pound, numeric: true });
          source += "(\\d+)";
          break;
        case 6: {
          const options: string[] = [];
          for (const option of Object.values(element.options ?? {})) {
            const inner = walk(option.value, element.value!);
            if (inner === null) return null;
            options.push(inner);
          }
          source += `(?:${options.join("|")})`;
          break;
        }
        default:
          return null; // select, dates, tags: never in a sentence the code writes
      }
    }
    return source;
  };
  try {
    const source = walk(new IntlMessageFormat(message, "en").getAst() as unknown as Element[], null);
    return source === null ? null : { regex: new RegExp(`^${source}$`, "s"), captures };
  } catch {
    return null;
  }
}

export interface SaidIndex {
  /** The key and values a sentence was written from, or null when it is not one of the catalog's. */
  find(text: string): { key: string; values: Values } | null;
}

const indexes = new WeakMap<Messages, SaidIndex>();

export function saidIndex(source: Messages): SaidIndex {
  const known = indexes.get(source);
  if (known) return known;
  const exact = new Map<string, string>();
  const patterns: { key: string; regex: RegExp; captures: { name: string; numeric: boolean }[] }[] = [];
  for (const [key, message] of Object.entries(source)) {
    if (!/[{#]/.test(message)) {
      exact.set(message, key);
      continue;
    }
    const pattern = patternOf(message);
    if (pattern) patterns.push({ key, ...pattern });
  }
  const index: SaidIndex = {
    find(text) {
      const key = exact.get(text);
      if (key) return { key, values: {} };
      for (const pattern of patterns) {
        const match = pattern.regex.exec(text);
        if (!match) continue;
        const values: Values = {};
        pattern.captures.forEach((capture, i) => {
          const found = match[i + 1];
          if (found !== undefined && values[capture.name] === undefined) values[capture.name] = capture.numeric ? Number(found.replace(/,/g, "")) : found;
        });
        return { key: pattern.key, values };
      }
      return null;
    },
  };
  indexes.set(source, index);
  return index;
}
