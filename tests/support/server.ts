// The built app (server.mjs) as a real HTTP server on a free port, against a test database: a file's own
// (`startServer`), or one lent by the API suite's server pool to every file asking for the same configuration
// (`sharedServer`, `useServerWithMailbox`; ADR 040).
import { spawn } from "node:child_process";
import path from "node:path";
import { freePort, spawnServer } from "../../scripts/lib/spawn-server.mjs";
import { afterAll, beforeAll, inject } from "vitest";
import { createTestDatabase, databaseKindUnderTest, type TestDatabase } from "./database";
import { Mailbox } from "./mailbox";
import type { LentServer } from "./server-pool";

const projectRoot = path.join(import.meta.dirname, "..", "..");
export const TEST_SECRET = "test-secret-that-is-long-enough-for-hmac-0123456789";

export interface TestServer {
  baseUrl: string;
  origin: string;
  /** The server's process (with WEB_CONCURRENCY > 1, the cluster primary). */
  pid: number;
  database: TestDatabase;
  /** What the server printed. Only a server of one's own: a shared one's log mixes every file's requests. */
  output: () => string;
  /** Stops a server of one's own; gives a shared one back to the pool. */
  stop(): Promise<void>;
  /** Lent by the server pool: other test files use it (and its database) at the same time. */
  shared: boolean;
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

/**
 * How many times as long a test server's rate-limit windows last (AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR, loopback
 * only): 10 minutes for the 10-second rules, an hour for the one-minute mail rule. A test that fills a window with
 * requests (3 sign-in attempts, 100 token requests at once) then never sees it end half-way on a loaded 2-core
 * machine: tests of a window control the window, not the machine. The limits themselves are the production ones,
 * and the production windows are pinned in tests/unit/client-bucket.test.ts. A Retry-After is at most
 * `windowSeconds * RATE_LIMIT_WINDOW_FACTOR`.
 */
export const RATE_LIMIT_WINDOW_FACTOR = 60;
const TEST_WINDOWS = { AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR: String(RATE_LIMIT_WINDOW_FACTOR) } as const;

/**
 * A server given a public BASE_URL (a test of https cookies, say) refuses the test-only settings: it hashes for
 * real and counts rate limits over the production windows.
 */
function testOnlyFor(env: Record<string, string> | undefined): Record<string, string> {
  const host = env?.BASE_URL ? new URL(env.BASE_URL).hostname : "localhost";
  return host === "localhost" || host === "[::1]" || host.startsWith("127.") ? { ...TEST_HASHING, ...TEST_WINDOWS } : {};
}

/** The api-remix-dispatch project runs the API suite through express + Remix's handler too (ADR 023). */
function apiDispatch(): Record<string, string> {
  return process.env.LATCHKEY_API_DISPATCH ? { LATCHKEY_API_DISPATCH: process.env.LATCHKEY_API_DISPATCH } : {};
}

/** The environment of a test server started with `env` (the database's URL comes on top). */
function serverEnv(env: Record<string, string> | undefined): Record<string, string> {
  return { ...testOnlyFor(env), AUTH_SECRET: TEST_SECRET, AUTH_RATE_LIMIT: "off", ...apiDispatch(), ...env };
}

/**
 * A server of this file's own, on a fresh database (or on `options.database`, as a second instance): for tests
 * that read its log, stop, kill or restart it, or need a database no other file writes to. Anything else asks
 * for a shared one (`sharedServer`), which costs nothing when another file already started its configuration.
 */
export async function startServer(options: StartOptions = {}): Promise<TestServer> {
  const database = options.database ?? (await createTestDatabase());
  const server = await spawnServer({
    env: { ...serverEnv(options.env), DATABASE_URL: database.url },
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
    shared: false,
  };
}

/**
 * A server started with `options.env`, shared with every test file of this Vitest project asking for the same
 * configuration (ADR 040): the first one's request starts it, later ones get it at once. Its database is shared
 * too, so a test finds its rows by what it created (unique addresses, ids), never by counting a whole table;
 * it may not stop, kill or restart the server, nor read its log (`startServer` gives a server of one's own).
 * `stop()` gives it back. With `mail`, it sends to the shared mailbox (as the servers of `useServerWithMailbox`
 * do), for a file that sends mail without reading it. Outside the API projects (no pool) it is a server of one's
 * own, its mail going to its log.
 */
export async function sharedServer(options: { env?: Record<string, string>; mail?: boolean } = {}): Promise<TestServer> {
  const pool = inject("serverPool");
  if (!pool) return startServer(options);
  const mail: Record<string, string> = options.mail ? { SMTP_URL: await Mailbox.sharedUrl(pool) } : {};
  const env = serverEnv({ ...mail, ...options.env });
  const response = await fetch(`${pool}/servers`, { method: "POST", body: JSON.stringify({ env, kind: databaseKindUnderTest() }) });
  if (!response.ok) throw new Error(`the server pool could not start a server:\n${await response.text()}`);
  const lent = (await response.json()) as LentServer;
  let released = false;
  return {
    baseUrl: lent.baseUrl,
    origin: lent.baseUrl,
    pid: lent.pid,
    // The pool drops it at the end of the run.
    database: { ...lent.database, drop: async () => {} },
    output: () => {
      throw new Error("a shared server's log mixes every test file's requests: read the log of a server of your own (startServer)");
    },
    async stop() {
      if (released) return;
      released = true;
      await fetch(`${pool}/servers/${lent.id}/release`, { method: "POST" });
    },
    shared: true,
  };
}

/** The mailbox shared servers send to (their `SMTP_URL` is its `url`); outside the API projects, one's own. */
export async function sharedMailbox(): Promise<Mailbox> {
  const pool = inject("serverPool");
  return pool ? Mailbox.shared(pool) : new Mailbox().start();
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
 * This file's server, its mail going to a real SMTP server on 127.0.0.1: both got before the file's tests and
 * given back after them. `started` receives them, for the file's own `server` and `mailbox` variables. Both are
 * shared with other files of the same configuration (`sharedServer`, `sharedMailbox`: find mail by recipient,
 * refuse one address rather than every message); `exclusive: true` starts a server and mailbox of the file's own.
 */
export function useServerWithMailbox(
  env: Record<string, string>,
  started: (running: { server: TestServer; mailbox: Mailbox }) => void,
  options: { exclusive?: boolean } = {},
): void {
  let running: { server?: TestServer; mailbox?: Mailbox } = {};
  beforeAll(async () => {
    const mailbox = options.exclusive ? await new Mailbox().start() : await sharedMailbox();
    running = { mailbox };
    const config = { env: { SMTP_URL: mailbox.url, ...env } };
    const server = options.exclusive ? await startServer(config) : await sharedServer(config);
    running = { server, mailbox };
    started({ server, mailbox });
  });
  afterAll(async () => {
    await running.server?.stop();
    await running.mailbox?.stop();
  });
}
