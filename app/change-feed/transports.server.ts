// How changes reach the other processes on the same database (ADR 024):
// - REDIS_URL set: Redis pub/sub (works behind a transaction-pooling PgBouncer, where LISTEN does not);
// - PostgreSQL: LISTEN/NOTIFY on the process's one listening connection. The database announces every committed change to
//   session, user and organization rows itself (triggers, migration 20261123120000_announce_session_changes),
//   hand edits included; only if those triggers are missing does the app send NOTIFY through Prisma's pool;
// - SQLite: the file itself. `PRAGMA data_version` on Prisma's connection changes whenever another connection
//   (another process, a cluster worker, a hand edit) commits, so reads check it (at most once a millisecond)
//   and announce "all" when it moved. Coarse for other processes' writes, but it needs nothing running and
//   misses nothing.
import Database from "better-sqlite3";
import type { Redis } from "ioredis";
import { decodeChange, encodeChange, type Transport, type TransportCallbacks } from "~/change-feed/feed.server";
import type { Listener } from "~/postgres-listener.server";
import { incrementRedisErrors } from "~/observability/metrics.server";

/** The name stays: PostgreSQL's triggers (the migration above) and operators (the README) announce on it. */
const CHANNEL = "latchkey_session_invalidation";
const RECONNECT_MIN_MS = 200;
const RECONNECT_MAX_MS = 5_000;
const PUBLISH_TIMEOUT_MS = 1_000;
/**
 * How often, at most, a read asks SQLite whether another connection committed. The check opens a read
 * transaction (locks on the WAL index): ~20 µs under load, a sixth of a whole cached read when made on every
 * one. Once a millisecond bounds another process's write to 1 ms of staleness, the same order as a NOTIFY's
 * delivery on PostgreSQL; this process's own writes are announced at once by the hooks, whatever the interval.
 */
export const SQLITE_POLL_INTERVAL_MS = 1;

/** The part of a better-sqlite3 connection the SQLite transport uses. */
export interface SqliteConnection {
  prepare(sql: string): { pluck(): { get(): unknown } };
}

/**
 * `connection()` is Prisma's own better-sqlite3 connection once it exists: on it, data_version ignores this
 * process's commits (announced key by key by the hooks) and moves for everyone else's. Without it (another
 * adapter), a separate read-only connection sees every commit, this process's included: coarser, still correct.
 */
export function sqliteTransport(
  file: string,
  connection: () => SqliteConnection | null,
  { intervalMs = SQLITE_POLL_INTERVAL_MS, now = () => performance.now() } = {},
): Transport {
  let watched: SqliteConnection | null = null;
  let check: (() => unknown) | null = null;
  let lastVersion: unknown;
  let checkedAt = -Infinity;
  let callbacks: TransportCallbacks | null = null;
  const watch = (target: SqliteConnection) => {
    const statement = target.prepare("PRAGMA data_version").pluck();
    watched = target;
    check = () => statement.get();
    lastVersion = check();
    callbacks?.connected(true);
  };
  return {
    name: "SQLite data_version",
    start(cb) {
      callbacks = cb;
      const own = connection();
      if (own) return watch(own);
      try {
        watch(new Database(file, { readonly: true, fileMustExist: true }));
        watched = null; // the fallback: replaced by Prisma's connection once it exists
      } catch (error) {
        console.error("[latchkey] session cache: cannot watch the SQLite file, caching stays off:", (error as Error).message);
      }
    },
    async publish() {
      // Other processes see the commit itself through data_version.
    },
    poll() {
      const own = connection();
      if (own && own !== watched) return watch(own); // (re)connected: subscribers start from nothing
      if (!check) return;
      const time = now();
      if (time - checkedAt < intervalMs) return;
      checkedAt = time;
      const version = check();
      if (version !== lastVersion) {
        lastVersion = version;
        callbacks?.deliver({ kind: "all" });
      }
    },
  };
}

/** The triggers that make PostgreSQL announce changes itself (one is enough to know the migration ran). */
const ANNOUNCING_TRIGGER = "session_deleted_announce";

/** Heard on the process's one listening connection (app/postgres-listener.server.ts), shared with the rate limiter. */
export function postgresTransport(listener: Listener, notify: (channel: string, payload: string) => Promise<unknown>): Transport {
  /** Until the triggers are seen, the app announces too (a repeated announcement costs only a cache miss). */
  let databaseAnnounces = false;
  return {
    name: "PostgreSQL LISTEN/NOTIFY",
    start(callbacks) {
      listener.subscribe({
        channel: CHANNEL,
        notification(payload) {
          const change = decodeChange(payload);
          if (change) callbacks.deliver(change);
        },
        async setUp(client) {
          const { rowCount } = await client.query("SELECT 1 FROM pg_trigger WHERE tgname = $1", [ANNOUNCING_TRIGGER]);
          databaseAnnounces = (rowCount ?? 0) > 0;
          if (!databaseAnnounces) console.error("[latchkey] session cache: the database does not announce changes itself (a migration is missing?); the app will");
        },
        up: () => callbacks.connected(true),
        down(reason) {
          callbacks.connected(false);
          console.error(`[latchkey] session cache: LISTEN connection lost (${reason}); caching paused until it is back`);
        },
      });
    },
    async publish(change) {
      if (!databaseAnnounces) await notify(CHANNEL, encodeChange(change));
    },
  };
}

export function redisTransport(url: string): Transport {
  // ioredis is loaded only where Redis is configured (docs/decisions/026-load-what-is-used.md).
  const loadRedis = () => import("ioredis").then((module) => module.Redis);
  let publisher: Promise<Redis> | null = null;
  return {
    name: "Redis pub/sub",
    start(callbacks) {
      void loadRedis().then((Redis) => {
        const subscriber = new Redis(url, {
          autoResubscribe: false, // subscribed again on "ready", and only then trusted
          maxRetriesPerRequest: null,
          retryStrategy: (times) => Math.min(RECONNECT_MIN_MS * 2 ** times, RECONNECT_MAX_MS),
        });
        let isConnected = false;
        const setConnected = (value: boolean) => {
          if (value === isConnected) return;
          isConnected = value;
          if (!value) console.error("[latchkey] session cache: Redis subscriber disconnected; caching paused until it is back");
          callbacks.connected(value);
        };
        subscriber.on("error", () => {
          incrementRedisErrors();
          setConnected(false);
        });
        subscriber.on("close", () => setConnected(false));
        subscriber.on("ready", () => {
          subscriber.subscribe(CHANNEL).then(
            () => setConnected(true),
            () => setConnected(false),
          );
        });
        subscriber.on("message", (_channel: string, message: string) => {
          const change = decodeChange(message);
          if (change) callbacks.deliver(change);
        });
      });
    },
    async publish(change) {
      publisher ??= loadRedis().then((Redis) => {
        const client = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true });
        client.on("error", () => incrementRedisErrors()); // failed publishes are logged by the feed
        return client;
      });
      const client = await publisher;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("Redis did not answer in time")), PUBLISH_TIMEOUT_MS);
      });
      try {
        await Promise.race([client.publish(CHANNEL, encodeChange(change)), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
