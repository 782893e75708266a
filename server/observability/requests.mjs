// One line and one observation per request on the public port (issue 40): the request id is settled and sent
// back first thing, and when the answer is done (or the client gone) the line is written and the histogram
// observed. The app adds who was signed in (`userId`) through the note the load context carries.
import { requestIdFrom, traceIdFrom } from "./request-id.mjs";
import { STATIC_ROUTE } from "./route-label.mjs";

/** Where the server keeps a request's note: the load context hands it to the app (server/client-address.mjs). */
export const REQUEST_NOTE = Symbol.for("latchkey.requestNote");
/** Set on a response the static-file handlers served (server/express-app.mjs): one route value for them all. */
export const SERVED_STATIC = Symbol.for("latchkey.servedStatic");

/**
 * @param {{
 *   logger: import("pino").Logger,
 *   recorder: ReturnType<typeof import("./metrics.mjs").createMetrics>["recorder"] | null,
 *   routeLabel: (pathname: string) => string,
 *   clientIp: (req: import("node:http").IncomingMessage) => string,
 * }} options
 * @returns {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => RequestNote}
 */
export function createRequestObserver({ logger, recorder, routeLabel, clientIp }) {
  // Request lines are `info`, a 5xx's `error` (written at every LOG_LEVEL), health probes' `debug` whatever their status.
  function finished(req, res, note, started) {
    const seconds = (performance.now() - started) / 1000;
    const status = res.statusCode;
    const route = note.route ?? (res[SERVED_STATIC] ? STATIC_ROUTE : routeLabel(pathOf(req.url)));
    recorder?.request(req.method, route, status, seconds);
    // A probe stays at debug even when readiness answers 503: the probe itself logs a dependency going down, once.
    const level = route.startsWith("/health/") ? "debug" : status >= 500 ? "error" : "info";
    if (!logger.isLevelEnabled(level)) return;
    const line = {
      requestId: note.requestId,
      method: req.method,
      route,
      status,
      durationMs: Math.round(seconds * 1_000_000) / 1000,
      ip: note.ip ?? clientIp(req),
    };
    if (note.userId) line.userId = note.userId;
    const traceId = traceIdFrom(req.headers.traceparent);
    if (traceId) line.traceId = traceId;
    if (!res.writableFinished) line.aborted = true;
    logger[level](line, "request");
  }

  return function observe(req, res) {
    /** @type {RequestNote} */
    const note = { requestId: requestIdFrom(req.headers["x-request-id"]), userId: undefined, ip: undefined, route: undefined };
    res.setHeader("X-Request-Id", note.requestId);
    req[REQUEST_NOTE] = note;
    const started = performance.now();
    res.once("close", () => finished(req, res, note, started));
    return note;
  };
}

/**
 * @typedef {{ requestId: string, userId: string | undefined, ip: string | undefined, route: string | undefined }} RequestNote
 *   `ip` as the load context computed it; `route` set where the server itself knows it (the OpenID provider)
 */

/** A request target's path, without its query. */
function pathOf(target) {
  const url = String(target ?? "");
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}
