// The process's one logger (pino, issue 40): JSON lines by default, a short text line for people with
// LOG_FORMAT=text. Everything the server writes goes through it, the app's `console` calls included (bridged
// at start-up, so a line from a library is a JSON line too). Two writers stay outside by design: AUTH_EVENT_LOG's
// security-event lines (ADR 048) and the no-SMTP development mailer, which prints mail as it always has.
import { format } from "node:util";
import pino from "pino";

export const LOG_LEVELS = ["debug", "info", "warn", "error"];
export const LOG_FORMATS = ["json", "text"];

/** What no line may hold, wherever it comes from: addresses in free text (an SMTP refusal names its recipient). */
const EMAIL_ADDRESS = /[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

/** Free text with every e-mail address replaced. */
export function scrub(text) {
  return typeof text === "string" && text.includes("@") ? text.replace(EMAIL_ADDRESS, "[email]") : text;
}

/**
 * Field names whose values never reach a line, at the top or one level down (pino's `redact`): secrets, what
 * carries them (cookies, Authorization, bodies, query strings, raw URLs) and addresses. The request line builds
 * its own fields and logs none of these; this catches what a future caller might pass by mistake.
 */
const SECRET_FIELDS = [
  "password", "newPassword", "currentPassword", "token", "accessToken", "refreshToken", "idToken", "secret",
  "totpSecret", "totpURI", "backupCodes", "otp", "cookie", "cookies", "authorization", "set-cookie", "headers",
  "body", "query", "url", "email", "to",
];
export const REDACTED_PATHS = SECRET_FIELDS.flatMap((name) => [`["${name}"]`, `*["${name}"]`]);

/** An error as pino writes it (type, message, stack), addresses scrubbed from the message and stack. */
function serializeError(error) {
  const plain = pino.stdSerializers.err(error);
  if (!plain || typeof plain !== "object") return plain;
  return { ...plain, message: scrub(plain.message), stack: scrub(plain.stack) };
}

/**
 * @param {{ format?: string, level?: string, destination?: { write(line: string): unknown } }} options
 *   unknown values fall back to the defaults: app/env.server.ts refuses them and stops start-up, with this
 *   logger saying so
 */
export function createLogger({ format: logFormat, level, destination } = {}) {
  const text = logFormat === "text";
  const options = {
    level: LOG_LEVELS.includes(level) ? level : "info",
    base: undefined,
    messageKey: "msg",
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
    serializers: { err: serializeError },
    redact: { paths: REDACTED_PATHS, censor: "[redacted]" },
  };
  if (text) return pino(options, textDestination(destination ?? process.stdout));
  // pino's own standard output: written asynchronously (a slow reader of the pipe never stalls a request) and
  // flushed synchronously when the process exits, process.exit() included.
  return destination ? pino(options, destination) : pino(options);
}

/** LOG_FORMAT=text: "2026-12-02T05:40:00.123Z WARN  message key=value", an error's stack on the lines after. */
function textDestination(out) {
  return {
    write(line) {
      out.write(textLine(JSON.parse(line)));
    },
  };
}

export function textLine(entry) {
  const { time, level, msg, err, ...fields } = entry;
  const pairs = Object.entries(fields).map(([key, value]) => `${key}=${typeof value === "string" ? value : JSON.stringify(value)}`);
  const head = [time, String(level).toUpperCase().padEnd(5), msg ?? "", ...pairs].join(" ");
  return `${head}${err?.stack ? `\n${err.stack}` : err?.message ? ` (${err.message})` : ""}\n`;
}

const NO_ROUTE_WARNING = /^No routes matched location /;

/**
 * Sends `console.*` through the logger: the app's and libraries' lines become lines of the log with a level
 * (log/info → info, warn → warn, error → error, debug → debug). An Error among the arguments becomes `err`
 * (stack inside); the rest is the message, without the old "[latchkey] " prefix and with addresses scrubbed.
 */
export function bridgeConsole(logger) {
  const forward = (level) =>
    function bridged(...args) {
      if (!logger.isLevelEnabled(level)) return;
      let err;
      const rest = [];
      for (const arg of args) {
        if (err === undefined && arg instanceof Error) err = arg;
        else rest.push(arg);
      }
      let msg = scrub(format(...rest)).replace(/^\[latchkey\] /, "").replace(/:\s*$/, "") || (err ? scrub(err.message) : "");
      // React Router's warning for a path no route serves quotes the raw path and query (a token, say): the
      // request's line already says 404 with its route value.
      if (NO_ROUTE_WARNING.test(msg)) {
        if (!logger.isLevelEnabled("debug")) return;
        logger.debug("no route matched");
        return;
      }
      if (err) logger[level]({ err }, msg);
      else logger[level](msg);
    };
  console.log = forward("info");
  console.info = forward("info");
  console.warn = forward("warn");
  console.error = forward("error");
  console.debug = forward("debug");
}
