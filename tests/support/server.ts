// Starts the built app (server.mjs) as a real HTTP server on a free port, against a test database.
import { spawn } from "node:child_process";
import path from "node:path";
import { freePort, spawnServer } from "../../scripts/lib/spawn-server.mjs";
import { afterAll, beforeAll } from "vitest";
import { createTestDatabase, type TestDatabase } from "./database";
import { Mailbox } from "./mailbox";

const projectRoot = path.join(import.meta.dirname, "..", "..");
export const TEST_SECRET = "test-secret-that-is-long-enough-for-hmac-0123456789";

export interface TestServer {
  baseUrl: string;
  origin: string;
  /** The server's process (with WEB_CONCURRENCY > 1, the cluster primary). */
  pid: number;
  database: TestDatabase;
  output: () => string;
  stop(): Promise<void>;
}

export interface StartOptions {
  env?: Record<string, string>;
  /** Share another server's database (to see what a second instance sees). */
  database?: TestDatabase;
}

/**
 * Test servers hash passwords at a cheap, test-only cost (ADR 032), which the server accepts only with a
 * loopback BASE_URL. A test whose subject is the hash itself passes `AUTH_TEST_PASSWORD_HASHING: "production"`.
 */
export const TEST_HASHING = { AUTH_TEST_PASSWORD_HASHING: "fast" } as const;

/** A server given a public BASE_URL (a test of https cookies, say) refuses the test-only cost: it hashes for real. */
function hashingFor(env: Record<string, string> | undefined): Record<string, string> {
  const host = env?.BASE_URL ? new URL(env.BASE_URL).hostname : "localhost";
  return host === "localhost" || host === "[::1]" || host.startsWith("127.") ? TEST_HASHING : {};
}

/** The api-remix-dispatch project runs the API suite through express + Remix's handler too (ADR 023). */
function apiDispatch(): Record<string, string> {
  return process.env.LATCHKEY_API_DISPATCH ? { LATCHKEY_API_DISPATCH: process.env.LATCHKEY_API_DISPATCH } : {};
}

export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const database = options.database ?? (await createTestDatabase());
  const server = await spawnServer({
    env: { ...hashingFor(options.env), AUTH_SECRET: TEST_SECRET, DATABASE_URL: database.url, AUTH_RATE_LIMIT: "off", ...apiDispatch(), ...options.env },
    // A start-up takes ~1 s; on two cores shared with a browser and other test files it has taken over 20.
    timeoutMs: 45_000,
  });
  return {
    baseUrl: server.baseUrl,
    origin: server.baseUrl,
    pid: server.pid,
    database,
    output: server.output,
    async stop() {
      await server.stop();
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
    // "close", not "exit": a child's output can still be in its pipes when it has exited, and a busy machine
    // then reads it too late (an empty output, seen once in a full run).
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

/**
 * This file's one server, its mail going to a real SMTP server on 127.0.0.1: both started before the file's
 * tests and stopped after them. `started` receives them, for the file's own `server` and `mailbox` variables.
 */
export function useServerWithMailbox(env: Record<string, string>, started: (running: { server: TestServer; mailbox: Mailbox }) => void): void {
  let running: { server?: TestServer; mailbox?: Mailbox } = {};
  beforeAll(async () => {
    const mailbox = await new Mailbox().start();
    running = { mailbox };
    const server = await startServer({ env: { SMTP_URL: mailbox.url, ...env } });
    running = { server, mailbox };
    started({ server, mailbox });
  });
  afterAll(async () => {
    await running.server?.stop();
    await running.mailbox?.stop();
  });
}
