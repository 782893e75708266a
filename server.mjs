// Production server. A custom server (rather than remix-serve) so rate limits and session records see the
// client's address, shutdown is prompt, /api/auth skips the page machinery (server/api-dispatch.mjs, ADR 023)
// and WEB_CONCURRENCY=N serves from N processes (server/primary.mjs). Run through `npm start`
// (scripts/start.mjs), which builds and migrates first.
import cluster from "node:cluster";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { announce, installObservability, serveMetrics } from "./server/observability/index.mjs";

const root = path.dirname(fileURLToPath(import.meta.url));
// Before anything is written: every line is the logger's (LOG_FORMAT, LOG_LEVEL), and the build finds the
// metrics recorder when METRICS_PORT is set (docs/decisions/062-metrics-and-request-logs.md).
installObservability({ root });
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";
const address = `http://${host === "0.0.0.0" ? "localhost" : host}:${port}`;

const concurrency = process.env.WEB_CONCURRENCY?.trim() || "1";
if (!/^[1-9][0-9]{0,2}$/.test(concurrency)) {
  console.error(`[latchkey] WEB_CONCURRENCY must be a whole number of processes (1 or more), not "${concurrency}".`);
  process.exit(1);
}
const workers = Number(concurrency);

if (workers > 1 && cluster.isPrimary) {
  const { runPrimary } = await import("./server/primary.mjs");
  runPrimary({
    root,
    workers,
    onListening: () => {
      announce(`listening on ${address} (${workers} processes)`);
      // The workers' metrics, summed (they validated METRICS_* while starting).
      serveMetrics({ cluster: true }).catch((error) => {
        console.error("[latchkey] the metrics port could not be opened:", error);
        process.kill(process.pid, "SIGTERM");
      });
    },
  });
} else {
  const { serve } = await import("./server/serve.mjs");
  await serve({ root, port, host });
  if (cluster.isPrimary) announce(`listening on ${address}`);
}
