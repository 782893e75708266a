// Starts the built app (server.mjs) as a real HTTP server on a free port, against a test database.
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import path from "node:path";
import { createTestDatabase, type TestDatabase } from "./database";

const projectRoot = path.join(import.meta.dirname, "..", "..");
export const TEST_SECRET = "test-secret-that-is-long-enough-for-hmac-0123456789";

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on("error", reject);
  });
}

export interface TestServer {
  baseUrl: string;
  origin: string;
  database: TestDatabase;
  output: () => string;
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Share another server's database (to see what a second instance sees). */
  database?: TestDatabase;
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const database = options.database ?? (await createTestDatabase());
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  let output = "";
  const child: ChildProcess = spawn(process.execPath, ["server.mjs"], {
    cwd: projectRoot,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      BASE_URL: baseUrl,
      AUTH_SECRET: TEST_SECRET,
      DATABASE_URL: database.url,
      AUTH_RATE_LIMIT: "off",
      ...options.env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited during start:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/api/auth/ok`);
      if (response.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`server did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    baseUrl,
    origin: baseUrl,
    database,
    output: () => output,
    async stop() {
      child.kill("SIGKILL");
      await exited;
      if (!options.database) await database.drop();
    },
  };
}

/** Starts a server expecting it to refuse to start; resolves with its output and exit code. */
export async function startServerExpectingFailure(env: Record<string, string | undefined>): Promise<{ code: number | null; output: string }> {
  const port = await freePort();
  return new Promise((resolve) => {
    let output = "";
    const child = spawn(process.execPath, ["server.mjs"], {
      cwd: projectRoot,
      env: { PATH: process.env.PATH, NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", ...env } as NodeJS.ProcessEnv,
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}
