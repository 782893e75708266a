// WEB_CONCURRENCY=N: N serving processes (node:cluster) sharing the port, so a multi-core machine is used by
// one product. The primary serves nothing itself: it starts the workers, starts a new one when one dies, and
// stops them all on SIGTERM/SIGINT. Workers need no messages from each other: what one writes reaches the
// others' session caches through the database (or Redis), as it reaches another instance's (ADR 024).
import cluster from "node:cluster";
import path from "node:path";

const STOP_GRACE_MS = 5_000;

/**
 * @param {{ root: string, workers: number, onListening: () => void, exec?: string }} options
 *   `exec` is what each worker runs (server.mjs; a test stands in its own)
 */
export function runPrimary({ root, workers: count, onListening, exec = path.join(root, "server.mjs") }) {
  // server.mjs, not process.argv[1]: under `npm start` that is scripts/start.mjs, which builds and migrates.
  cluster.setupPrimary({ exec });
  let stopping = false;
  let listening = 0;

  const start = () => {
    const worker = cluster.fork();
    worker.once("listening", () => {
      worker.latchkeyListening = true;
      if (++listening === count) onListening();
    });
    return worker;
  };

  cluster.on("exit", (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    if (!worker.latchkeyListening) {
      // It never came up (a configuration error, a port in use): starting it again would fail the same way.
      console.error(`[latchkey] a worker exited during start-up (${signal ?? `code ${code}`}): stopping.`);
      stop(code || 1);
      return;
    }
    console.error(`[latchkey] worker ${worker.process.pid} exited (${signal ?? `code ${code}`}): starting another.`);
    start();
  });

  function stop(exitCode = 0) {
    if (stopping) return;
    stopping = true;
    const remaining = Object.values(cluster.workers ?? {}).filter(Boolean);
    if (remaining.length === 0) process.exit(exitCode);
    for (const worker of remaining) worker.process.kill("SIGTERM");
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGKILL");
      process.exit(exitCode);
    }, STOP_GRACE_MS).unref();
    if (exitCode !== 0) process.exitCode = exitCode;
  }
  process.on("SIGTERM", () => stop(0));
  process.on("SIGINT", () => stop(0));

  for (let i = 0; i < count; i++) start();
}
