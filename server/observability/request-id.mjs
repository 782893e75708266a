// Which request a line is about: X-Request-Id (kept when a proxy set a sane one, so its log and ours join up)
// and the trace id of a W3C `traceparent`, the bridge to a tracing system until Latchkey has one (issue 40).
import { randomUUID } from "node:crypto";

/** What an incoming X-Request-Id may be to be kept; anything else (absent, repeated, too long) gets a fresh one. */
const KEPT_REQUEST_ID = /^[A-Za-z0-9._:/+=-]{1,128}$/;

/** The request's id: the incoming header when it passes the rule, else a random UUID. */
export function requestIdFrom(header) {
  return typeof header === "string" && KEPT_REQUEST_ID.test(header) ? header : randomUUID();
}

/** version-traceid-parentid-flags, lower-case hex (W3C Trace Context §3.2). */
const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ZEROS_32 = "0".repeat(32);
const ZEROS_16 = "0".repeat(16);

/** The trace id of a valid `traceparent`, or undefined (absent, malformed, all-zero ids, version ff). */
export function traceIdFrom(header) {
  if (typeof header !== "string" || header.length < 55) return undefined;
  const parts = TRACEPARENT.exec(header.trim());
  if (!parts) return undefined;
  const [, version, traceId, parentId, , rest] = parts;
  if (version === "ff" || traceId === ZEROS_32 || parentId === ZEROS_16) return undefined;
  // Version 00 has exactly four fields; a later version may add more after a dash.
  if (version === "00" && rest !== undefined) return undefined;
  return traceId;
}
