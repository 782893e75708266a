// JSON text for API answers, made once for a value that never changes. A value registered with `unchanging`
// must be deeply frozen (its nested objects too): its text is made the first time it is answered with and
// reused after. GET /get-session answers the same frozen object for as long as the session cache holds the
// session (presenters.server.ts registers it), so a signed-in read skips serializing it again. ADR 023.
// It lives beside the presenters, below the HTTP layer that answers with it (app/http/endpoint.server.ts):
// app/auth imports nothing from app/http (ADR 033).

/** Registered values, and their text once made. */
const texts = new WeakMap<object, string | undefined>();

export function unchanging<T extends object>(value: T): T {
  if (!texts.has(value)) texts.set(value, undefined);
  return value;
}

export function jsonText(data: unknown): string {
  if (typeof data === "object" && data !== null && texts.has(data)) {
    let text = texts.get(data);
    if (text === undefined) texts.set(data, (text = JSON.stringify(data)));
    return text;
  }
  return JSON.stringify(data ?? null);
}
