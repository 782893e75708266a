// How invalidations reach the other processes on the same database (ADR 024):
// - REDIS_URL set: Redis pub/sub (works behind a transaction-pooling PgBouncer, where LISTEN does not);
// - PostgreSQL: LISTEN/NOTIFY on one dedicated connection; NOTIFY goes out through Prisma's pool;
// - SQLite: the file itself. `PRAGMA data_version` on a read-only connection changes whenever another
//   connection (another process, a cluster worker, or this process's Prisma connection) commits, so a read
//   checks it first (~2 µs) and empties the cache when it moved. Coarse, but it needs nothing running.
import Database from "better-sqlite3";
import pg from "pg";
import { Redis } from "ioredis";
import { decodeInvalidation, encodeInvalidation, type Transport, type TransportCallbacks } from "~/auth/session-cache/bus.server";

const CHANNEL = "latchkey_session_invalidation";
const RECONNECT_MIN_MS = 200;
const RECONNECT_MAX_MS = 5_000;
const PUBLISH_TIMEOUT_MS = 1_000;

export function sqliteTransport(file: string): Transport {
  let check: (() => unknown) | null = null;
  let lastVersion: unknown;
  let callbacks: TransportCallbacks | null = null;
  return {
    name: "SQLite data_version",
    start(cb) {
      callbacks = cb;
      try {
        const connection = new Database(file, { readonly: true, fileMustExist: true });
        const statement = connection.prepare("PRAGMA data_version").pluck();
        check = () => statement.get();
        lastVersion = check();
        cb.connected(true);
      } catch (error) {
        console.error("[latchkey] session cache: cannot watch the SQLite file, caching stays off:", (error as Error).message);
        cb.connected(false);
      }
    },
    async publish() {
      // Other processes see the commit itself through data_version.
    },
    poll() {
      if (!check) return;
      const version = check();
      if (version !== lastVersion) {
        lastVersion = version;
        callbacks?.deliver({ kind: "all" });
      }
    },
  };
}

export function postgresTransport(connectionString: string, notify: (channel: string, payload: string) => Promise<unknown>): Transport {
  let delay = RECONNECT_MIN_MS;
  return {
    name: "PostgreSQL LISTEN/NOTIFY",
    start(callbacks) {
      const connect = () => {
        const client = new pg.Client({ connectionString, keepAlive: true });
        let down = false;
        const lost = (reason: string) => {
          if (down) return;
          down = true;
          callbacks.connected(false);
          console.error(`[latchkey] session cache: LISTEN connection lost (${reason}); caching paused until it is back`);
          client.end().catch(() => {});
          setTimeout(connect, delay).unref();
          delay = Math.min(delay * 2, RECONNECT_MAX_MS);
        };
        client.on("error", (error) => lost(error.message));
        client.on("end", () => lost("closed"));
        client.on("notification", (message) => {
          const invalidation = decodeInvalidation(message.payload ?? "");
          if (invalidation) callbacks.deliver(invalidation);
        });
        client
          .connect()
          .then(() => client.query(`LISTEN ${CHANNEL}`))
          .then(() => {
            if (down) return;
            delay = RECONNECT_MIN_MS;
            callbacks.connected(true);
          })
          .catch((error) => lost(error.message));
      };
      connect();
    },
    async publish(invalidation) {
      await notify(CHANNEL, encodeInvalidation(invalidation));
    },
  };
}

export function redisTransport(url: string): Transport {
  let publisher: Redis | null = null;
  return {
    name: "Redis pub/sub",
    start(callbacks) {
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
      subscriber.on("error", () => setConnected(false));
      subscriber.on("close", () => setConnected(false));
      subscriber.on("ready", () => {
        subscriber.subscribe(CHANNEL).then(
          () => setConnected(true),
          () => setConnected(false),
        );
      });
      subscriber.on("message", (_channel: string, message: string) => {
        const invalidation = decodeInvalidation(message);
        if (invalidation) callbacks.deliver(invalidation);
      });
    },
    async publish(invalidation) {
      if (!publisher) {
        publisher = new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: true });
        publisher.on("error", () => {}); // failures surface as rejected publishes, logged by the bus
      }
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error("Redis did not answer in time")), PUBLISH_TIMEOUT_MS);
      });
      try {
        await Promise.race([publisher.publish(CHANNEL, encodeInvalidation(invalidation)), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
  };
}
