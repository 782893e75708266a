// One PostgreSQL connection per process for everything that listens: the session cache's invalidations
// (docs/decisions/024-session-cache-and-invalidation.md) and the rate limiter's peers (025). Each subscriber
// names a channel and hears its notifications. On every connection the listener LISTENs on each channel, lets
// each subscriber run its own queries on the connection (`setUp`), and only then, if the connection still
// stands, tells it the connection is `up`; when the connection is lost, every subscriber hears `down` at once,
// and it is made again with backoff. pg_stat_activity shows it as `latchkey` (the rate limiter renames it
// `latchkey-peer` in a process that counts, to be counted: app/auth/rate-limit/peers.server.ts).
import type pg from "pg";

/** The connection's application_name, so operators (and tests) can tell it in pg_stat_activity. */
export const LISTENER_NAME = "latchkey";
const RECONNECT_MIN_MS = 200;
const RECONNECT_MAX_MS = 5_000;

export interface Subscriber {
  /** A constant identifier (it is written into LISTEN as it is). */
  readonly channel: string;
  notification(payload: string): void;
  /**
   * Runs on each new connection after LISTEN, before `up`: queries on `client` run on the listening connection.
   * A rejection, or `fail()` later (a periodic query that failed), drops the connection and makes a new one.
   */
  setUp?(client: pg.Client, fail: (reason: string) => void): Promise<void>;
  /** The connection stands and this channel is heard (called only if it was not lost meanwhile). */
  up(): void;
  /** The connection is lost: notifications may be missed until the next `up`. */
  down(reason: string): void;
}

export interface Listener {
  /** Starts the connection on the first subscriber; a later one is set up on the connection there is. */
  subscribe(subscriber: Subscriber): void;
}

const listeners = new Map<string, Listener>();

/** The process's listener for a database (one per connection string). */
export function postgresListener(connectionString: string): Listener {
  let listener = listeners.get(connectionString);
  if (!listener) {
    listener = createListener(connectionString);
    listeners.set(connectionString, listener);
  }
  return listener;
}

interface Connection {
  client: pg.Client;
  lost: boolean;
  lose(reason: string): void;
}

function createListener(connectionString: string): Listener {
  const subscribers: Subscriber[] = [];
  let current: Connection | null = null;
  let delay = RECONNECT_MIN_MS;

  async function attach(connection: Connection, subscriber: Subscriber): Promise<void> {
    await connection.client.query(`LISTEN ${subscriber.channel}`);
    await subscriber.setUp?.(connection.client, connection.lose);
    if (!connection.lost) subscriber.up();
  }

  /** pg is loaded on the first connection, so a SQLite deployment never loads it (decision 026). */
  function connect() {
    void import("pg").then(({ default: driver }) => open(driver));
  }

  function open(driver: typeof pg) {
    const client = new driver.Client({ connectionString, keepAlive: true, application_name: LISTENER_NAME });
    const connection: Connection = {
      client,
      lost: false,
      lose(reason) {
        if (connection.lost) return;
        connection.lost = true;
        if (current === connection) current = null;
        for (const subscriber of subscribers) subscriber.down(reason);
        client.end().catch(() => {});
        setTimeout(connect, delay).unref();
        delay = Math.min(delay * 2, RECONNECT_MAX_MS);
      },
    };
    client.on("error", (error) => connection.lose(error.message));
    client.on("end", () => connection.lose("closed"));
    client.on("notification", (message) => {
      for (const subscriber of subscribers) if (subscriber.channel === message.channel) subscriber.notification(message.payload ?? "");
    });
    client
      .connect()
      .then(async () => {
        if (connection.lost) return;
        current = connection;
        await Promise.all(subscribers.map((subscriber) => attach(connection, subscriber)));
        if (!connection.lost) delay = RECONNECT_MIN_MS;
      })
      .catch((error) => connection.lose(error.message));
  }

  return {
    subscribe(subscriber) {
      subscribers.push(subscriber);
      if (subscribers.length === 1) return connect();
      const connection = current;
      if (connection) attach(connection, subscriber).catch((error) => connection.lose(error.message));
    },
  };
}
