// Starts the built app (server.mjs) as its own process on a free port, with only the environment it is given,
// and resolves once it listens and GET /api/auth/ok answers. Used by the API tests and the benchmark.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { projectRoot } from "./database-url.mjs";

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {{ port: number }} */ (server.address());
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

/**
 * What every script started here prints once its own socket is bound ("[latchkey] listening on …",
 * "listening"). A free port is only free when asked: another process may take it before the child binds it, and
 * then /api/auth/ok answers from that other server while the child dies of EADDRINUSE. So the child must say
 * it listens before the port is trusted, and a taken port is tried again with another.
 */
const LISTENING = /\blistening\b/;
const PORT_TAKEN = /EADDRINUSE/;
const PORT_ATTEMPTS = 5;

/**
 * @param {{ env: Record<string, string | undefined>, host?: string, timeoutMs?: number, script?: string, readyPath?: string }} options
 *   `script` (server.mjs) is run from the project root and is ready once it prints that it listens and
 *   `readyPath` answers 2xx; `env` comes on top of PATH, NODE_ENV=production, PORT, HOST and BASE_URL (which it
 *   may override); nothing else from the caller's environment reaches the server.
 * @returns {Promise<{ baseUrl: string, pid: number, output: () => string, stop: (signal?: NodeJS.Signals) => Promise<void> }>}
 */
export async function spawnServer(options) {
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnOnce(options);
    } catch (error) {
      if (!(error instanceof PortTaken) || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

class PortTaken extends Error {}

async function spawnOnce({ env, host = "localhost", timeoutMs = 20_000, script = "server.mjs", readyPath = "/api/auth/ok" }) {
  const port = await freePort();
  const baseUrl = `http://${host}:${port}`;
  let output = "";
  const child = spawn(process.execPath, [script], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", BASE_URL: baseUrl, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.on("exit", resolve));
  /** Once its pipes are drained too: what it printed before exiting may arrive after "exit". */
  const closed = new Promise((resolve) => child.on("close", resolve));
  /** SIGKILL by default: tests do not need remix's graceful keep-alive wait. */
  const stop = async (signal = "SIGKILL") => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), 3000);
      await exited;
      clearTimeout(timer);
    }
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 2_000))]);
      if (PORT_TAKEN.test(output)) throw new PortTaken(`port ${port} was taken before the server bound it`);
      throw new Error(`the server exited during start-up:\n${output}`);
    }
    try {
      if (LISTENING.test(output) && (await fetch(`${baseUrl}${readyPath}`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the server did not start within ${timeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return { baseUrl, pid: /** @type {number} */ (child.pid), output: () => output, stop };
}
