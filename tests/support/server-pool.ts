// The API suite's server pool (ADR 040): a Vitest globalSetup that starts test servers on demand, one per shape of
// configuration (its environment and the database kind), and lends each to every test file that asks for that
// shape (`sharedServer`, `useServerWithMailbox` in tests/support/server.ts). It also runs the one SMTP server
// those servers send to, streaming each message to the files that watch it (`Mailbox.shared`). It lives in
// Vitest's main process, for the whole run, and answers the test files (in their worker processes) over HTTP on
// 127.0.0.1: files of one project share its pool, and a server outlives the file that started it.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { TestProject } from "vitest/node";
import { spawnServer } from "../../scripts/lib/spawn-server.mjs";
import { createTestDatabase, type DatabaseKind, type TestDatabase } from "./database";
import { Mailbox } from "./mailbox";

declare module "vitest" {
  export interface ProvidedContext {
    /** The server pool's address, for `sharedServer` and `Mailbox.shared`; absent outside the API projects. */
    serverPool?: string;
  }
}

/** What the pool answers a file that asks for a server. */
export interface LentServer {
  id: number;
  baseUrl: string;
  pid: number;
  database: { kind: DatabaseKind; url: string };
}

type Spawned = Awaited<ReturnType<typeof spawnServer>>;

interface Pooled {
  id: number;
  key: string;
  /** Files holding it now; at 0 it idles, kept for the next file of the same shape until evicted. */
  users: number;
  lastReleased: number;
  ready: Promise<{ server: Spawned; database: TestDatabase }>;
}

/**
 * Idle servers kept for a later file of the same shape; beyond this, the one idle longest is stopped. A server
 * takes ~100 MB and no CPU while idle; restarting one costs ~1 s of CPU.
 */
const MAX_IDLE = Number(process.env.TEST_SERVER_POOL_IDLE ?? 24);

/** The pool's key for a configuration: the same environment and database kind, in any order, is the same shape. */
export function shapeKey(env: Record<string, string>, kind: DatabaseKind): string {
  return JSON.stringify([kind, Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))]);
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const mailbox = await new Mailbox().start();
  const pooled = new Map<string, Pooled>();
  const byId = new Map<number, Pooled>();
  let started = 0;
  let lent = 0;

  function launch(key: string, env: Record<string, string>, kind: DatabaseKind): Pooled {
    const entry: Pooled = {
      id: ++started,
      key,
      users: 0,
      lastReleased: 0,
      ready: (async () => {
        const database = await createTestDatabase(kind);
        try {
          // A start-up takes ~1 s; on two cores shared with a browser and other test files it has taken over 20.
          const server = await spawnServer({ env: { ...env, DATABASE_URL: database.url }, timeoutMs: 45_000 });
          return { server, database };
        } catch (error) {
          await database.drop();
          throw error;
        }
      })(),
    };
    // A start-up that failed is not kept: the next file of that shape tries again (and sees why).
    entry.ready.catch(() => forget(entry));
    pooled.set(key, entry);
    byId.set(entry.id, entry);
    return entry;
  }

  function forget(entry: Pooled): void {
    if (pooled.get(entry.key) === entry) pooled.delete(entry.key);
    byId.delete(entry.id);
  }

  async function retire(entry: Pooled): Promise<void> {
    forget(entry);
    const { server, database } = await entry.ready;
    await server.stop();
    await database.drop();
  }

  async function alive(server: Spawned): Promise<boolean> {
    try {
      return (await fetch(`${server.baseUrl}/api/auth/ok`)).ok;
    } catch {
      return false;
    }
  }

  async function lend(env: Record<string, string>, kind: DatabaseKind): Promise<LentServer> {
    const key = shapeKey(env, kind);
    let entry = pooled.get(key) ?? launch(key, env, kind);
    entry.users += 1;
    let { server, database } = await entry.ready;
    if (!(await alive(server))) {
      // A shared server that died would fail every later file of its shape for a reason not theirs: say so once,
      // with its log, and start a new one.
      console.error(`[server pool] a shared server died; its log:\n${server.output()}`);
      entry.users -= 1;
      void retire(entry).catch(() => {});
      entry = launch(key, env, kind);
      entry.users += 1;
      ({ server, database } = await entry.ready);
    }
    lent += 1;
    return { id: entry.id, baseUrl: server.baseUrl, pid: server.pid, database: { kind: database.kind, url: database.url } };
  }

  async function release(id: number): Promise<void> {
    const entry = byId.get(id);
    if (!entry) return;
    entry.users = Math.max(0, entry.users - 1);
    entry.lastReleased = Date.now();
    const idle = [...byId.values()].filter((e) => e.users === 0).sort((a, b) => a.lastReleased - b.lastReleased);
    for (const stale of idle.slice(0, Math.max(0, idle.length - MAX_IDLE))) await retire(stale).catch(() => {});
  }

  const feeds = new Set<ServerResponse>();
  mailbox.subscribe((mail) => feeds.forEach((feed) => feed.write(`${JSON.stringify(mail)}\n`)));

  async function body(request: IncomingMessage): Promise<any> {
    let text = "";
    for await (const chunk of request) text += chunk;
    return text ? JSON.parse(text) : {};
  }

  const control = createServer((request, response) => {
    const answer = (status: number, value: unknown) => {
      response.writeHead(status, { "content-type": "application/json" });
      response.end(JSON.stringify(value));
    };
    const route = `${request.method} ${request.url}`;
    (async () => {
      if (route === "POST /servers") {
        const { env, kind } = await body(request);
        return answer(200, await lend(env, kind));
      }
      const releasing = /^POST \/servers\/(\d+)\/release$/.exec(route);
      if (releasing) {
        await release(Number(releasing[1]));
        return answer(200, {});
      }
      if (route === "GET /mail") return answer(200, { smtpUrl: mailbox.url });
      if (route === "GET /mail/feed") {
        // Newline-delimited JSON, one message a line, from now on; the headers go at once, so the file knows
        // it is watching before it sends anything.
        response.writeHead(200, { "content-type": "application/x-ndjson" });
        response.flushHeaders();
        feeds.add(response);
        request.on("close", () => feeds.delete(response));
        return;
      }
      if (route === "POST /mail/refuse") {
        const { address, refused } = await body(request);
        await mailbox.refuse(address, refused);
        return answer(200, {});
      }
      answer(404, { error: `no ${route}` });
    })().catch((error: Error) => answer(500, { error: error.stack ?? String(error) }));
  });
  await new Promise<void>((resolve) => control.listen(0, "127.0.0.1", resolve));
  project.provide("serverPool", `http://127.0.0.1:${(control.address() as { port: number }).port}`);

  return async () => {
    feeds.forEach((feed) => feed.end());
    control.closeAllConnections();
    await new Promise<void>((resolve) => control.close(() => resolve()));
    await Promise.all([...byId.values()].map((entry) => retire(entry).catch(() => {})));
    await mailbox.stop();
    if (process.env.TEST_SERVER_POOL_REPORT) console.log(`[server pool] ${project.name}: ${started} servers started, lent ${lent} times`);
  };
}
