// What a test server wrote, read as the log it is (ADR 062): one JSON object per line (LOG_FORMAT=json, the
// default). Lines that are not JSON (the no-SMTP development mailer's mail, a crash before the logger existed)
// are kept as `{ raw }`.
export interface LogLine {
  level?: string;
  time?: string;
  msg?: string;
  [field: string]: unknown;
}

export function logLines(output: string): LogLine[] {
  return output
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      if (!line.startsWith("{")) return { raw: line };
      try {
        return JSON.parse(line) as LogLine;
      } catch {
        return { raw: line };
      }
    });
}

/** The messages of the log's lines, in order. */
export function logMessages(output: string): string[] {
  return logLines(output).flatMap((line) => (typeof line.msg === "string" ? [line.msg] : []));
}

/** The request lines (`msg: "request"`). */
export function requestLines(output: string): LogLine[] {
  return logLines(output).filter((line) => line.msg === "request");
}
