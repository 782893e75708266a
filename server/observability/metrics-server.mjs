// The metrics listener (issue 40): a second port, METRICS_PORT on METRICS_HOST, serving the registry at
// METRICS_PATH and nothing else. With METRICS_TOKEN a scrape must say `Authorization: Bearer <token>`, compared
// in constant time. A scrape reads memory only (never the database), so it answers during an outage.
import { createHash, timingSafeEqual } from "node:crypto";
import http from "node:http";

/** The settings as the server reads them once app/env.server.ts accepted them (it names a bad one and stops). */
export function metricsSettings(source = process.env) {
  const port = source.METRICS_PORT?.trim();
  if (!port) return null;
  return {
    port: Number(port),
    host: source.METRICS_HOST?.trim() || source.HOST?.trim() || "0.0.0.0",
    path: source.METRICS_PATH?.trim() || "/metrics",
    token: source.METRICS_TOKEN || null,
  };
}

const digest = (text) => createHash("sha256").update(text).digest();

/** Whether an Authorization header carries the token; digests of equal length, so the comparison leaks nothing. */
export function bearerMatches(header, token) {
  const presented = typeof header === "string" && /^Bearer /i.test(header) ? header.slice(7).trim() : "";
  return timingSafeEqual(digest(presented), digest(token));
}

/**
 * @param {{ settings: NonNullable<ReturnType<typeof metricsSettings>>,
 *   collector: { contentType: string, metrics: () => Promise<string> },
 *   logger: import("pino").Logger, announce?: (message: string, fields: object) => void }} options
 * @returns {Promise<http.Server>}
 */
export async function startMetricsServer({ settings, collector, logger, announce = (message, fields) => logger.info(fields, message) }) {
  const server = http.createServer((req, res) => {
    const started = performance.now();
    res.once("finish", () => {
      const durationMs = Math.round((performance.now() - started) * 1000) / 1000;
      logger.debug({ method: req.method, route: settings.path, status: res.statusCode, durationMs }, "scrape");
    });
    const query = req.url.indexOf("?");
    const pathname = query === -1 ? req.url : req.url.slice(0, query);
    if (pathname !== settings.path || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not Found");
      return;
    }
    if (settings.token && !bearerMatches(req.headers.authorization, settings.token)) {
      res.writeHead(401, { "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": 'Bearer realm="metrics"' }).end("Unauthorized");
      return;
    }
    collector
      .metrics()
      .then((text) => res.writeHead(200, { "Content-Type": collector.contentType, "Cache-Control": "no-store" }).end(req.method === "HEAD" ? undefined : text))
      .catch((error) => {
        logger.error({ err: error }, "metrics could not be collected");
        res.writeHead(503, { "Content-Type": "text/plain; charset=utf-8" }).end("Metrics unavailable");
      });
  });
  server.keepAliveTimeout = 5_000;
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(settings.port, settings.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  announce(`metrics on port ${settings.port}`, { host: settings.host, port: settings.port, path: settings.path });
  return server;
}
