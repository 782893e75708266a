// Logs and metrics for this process, set up before the build is loaded (server.mjs, scripts/start.mjs) so the
// app's modules find them: the logger on `console` and on LOGGER_GLOBAL, the metrics recorder on METRICS_GLOBAL
// (only with METRICS_PORT; without it nothing is measured anywhere). See docs/decisions/062-metrics-and-request-logs.md.
import cluster from "node:cluster";
import { readFileSync } from "node:fs";
import path from "node:path";
import { bridgeConsole, createLogger } from "./logger.mjs";
import { createClusterCollector, createMetrics, METRICS_GLOBAL, singleProcessCollector } from "./metrics.mjs";
import { metricsSettings, startMetricsServer } from "./metrics-server.mjs";

export const LOGGER_GLOBAL = Symbol.for("latchkey.logger");
const INSTALLED = Symbol.for("latchkey.observability");

/**
 * Idempotent: scripts/start.mjs sets up, then server.mjs finds it done.
 * @param {{ root: string }} options
 * @returns {{ logger: import("pino").Logger, metrics: ReturnType<typeof createMetrics> | null }}
 */
export function installObservability({ root }) {
  if (globalThis[INSTALLED]) return globalThis[INSTALLED];
  const logger = createLogger({ format: process.env.LOG_FORMAT?.trim(), level: process.env.LOG_LEVEL?.trim() });
  bridgeConsole(logger);
  globalThis[LOGGER_GLOBAL] = logger;
  // The primary of several workers serves their sum (server/primary.mjs) and keeps no registry of its own.
  const primaryOfMany = cluster.isPrimary && Number(process.env.WEB_CONCURRENCY?.trim() || "1") > 1;
  let metrics = null;
  if (metricsSettings() && !primaryOfMany) {
    const { version } = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
    metrics = createMetrics({ version, cluster: cluster.isWorker });
    globalThis[METRICS_GLOBAL] = metrics.recorder;
  }
  return (globalThis[INSTALLED] = { logger, metrics });
}

/**
 * A start-up milestone ("listening on …"): written at info whatever LOG_LEVEL says, since an operator (and every
 * script that waits for the server) must see that it started.
 */
export function announce(message, fields = {}) {
  const { logger } = globalThis[INSTALLED];
  (logger.isLevelEnabled("info") ? logger : logger.child({}, { level: "info" })).info(fields, message);
}

/**
 * Opens the metrics port when METRICS_PORT is set: in a process serving alone its own registry, in the primary of
 * WEB_CONCURRENCY workers (`cluster: true`) their sum. A cluster worker opens none. Resolves to the server or null.
 * @param {{ cluster?: boolean }} options
 */
export async function serveMetrics({ cluster: ofWorkers = false } = {}) {
  const settings = metricsSettings();
  const installed = globalThis[INSTALLED];
  if (!settings || !installed || cluster.isWorker) return null;
  const collector = ofWorkers ? createClusterCollector() : installed.metrics && singleProcessCollector(installed.metrics.registry);
  if (!collector) return null;
  return startMetricsServer({ settings, collector, logger: installed.logger, announce });
}
