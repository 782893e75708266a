// Where rate-limit counters live: the database's rateLimit table (one atomic upsert per count), Redis
// (rate-limiter-flexible), this process's memory, or, on PostgreSQL without Redis, memory while this process
// is the only one on the database and the table as soon as it is not. Fixed windows everywhere.
// docs/decisions/006-rate-limiting.md, 024 and 025.
import type { RateLimiterRedis } from "rate-limiter-flexible";
import { randomToken } from "~/auth/core/crypto.server";
import { watchPostgresPeers } from "~/auth/rate-limit/peers.server";
import { postgresListener } from "~/postgres-listener.server";
import { db } from "~/db.server";
import { incrementRedisErrors } from "~/observability/metrics.server";

export interface RateRule {
  windowSeconds: number;
  max: number;
}

export interface Verdict {
  allowed: boolean;
  retryAfterSeconds: number;
  /** When the current window ends (ms since the epoch). */
  resetAt: number;
}

export type Store = (key: string, rule: RateRule) => Promise<Verdict>;

/** A place taken before a comparison (ADR 029, 057), or the refusal of a window whose places are all taken. */
export type Reservation = { place: number; windowStartedAt: number } | { retryAfterSeconds: number; windowStartedAt: number };

/**
 * Counters that hand out places instead of counting requests: at most `rule.max` per window, a refused
 * reservation is not counted, and a place can be given back to the window it came from.
 */
export interface PlaceCounters {
  reserve(key: string, rule: RateRule): Promise<Reservation>;
  giveBack(key: string, windowStartedAt: number): Promise<void>;
  /**
   * A window whose last place was just taken (a lock), written where a restart finds it: a no-op for the table,
   * which is already there; from memory, one upsert, after the answer (ADR 061).
   */
  keepSpent(key: string, windowStartedAt: number, count: number): Promise<void>;
}

/** Sets a spent window in the table: this window's count if larger, or the window itself if the row's has ended. */
async function writeSpentWindow(key: string, windowStartedAt: number, count: number): Promise<void> {
  await db.$executeRaw`
    INSERT INTO "rateLimit" ("id", "key", "count", "lastRequest") VALUES (${randomToken(24)}, ${key}, ${count}, ${BigInt(windowStartedAt)})
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "rateLimit"."lastRequest" <> excluded."lastRequest" OR excluded."count" > "rateLimit"."count" THEN excluded."count" ELSE "rateLimit"."count" END,
      "lastRequest" = excluded."lastRequest"`;
}

const verdict = (count: number, rule: RateRule, windowEnds: number, now: number): Verdict => ({
  allowed: count <= rule.max,
  retryAfterSeconds: Math.max(1, Math.ceil((windowEnds - now) / 1000)),
  resetAt: windowEnds,
});

/**
 * Adds `amount` to a key's window in the table (a new window if the last one has ended) and returns the
 * count and the window's start. One statement, so concurrent requests from several instances cannot both read
 * a stale count.
 */
async function addToTable(key: string, windowSeconds: number, amount: number, at: number) {
  const windowStartedBefore = BigInt(at - windowSeconds * 1000);
  const rows = await db.$queryRaw<Array<{ count: number | bigint; lastRequest: number | bigint }>>`
    INSERT INTO "rateLimit" ("id", "key", "count", "lastRequest") VALUES (${randomToken(24)}, ${key}, ${amount}, ${BigInt(at)})
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "rateLimit"."lastRequest" <= ${windowStartedBefore} THEN ${amount} ELSE "rateLimit"."count" + ${amount} END,
      "lastRequest" = CASE WHEN "rateLimit"."lastRequest" <= ${windowStartedBefore} THEN ${BigInt(at)} ELSE "rateLimit"."lastRequest" END
    RETURNING "count", "lastRequest"`;
  return { count: Number(rows[0].count), startedAt: Number(rows[0].lastRequest) };
}

export const databaseStore: Store = async (key, rule) => {
  const now = Date.now();
  const { count, startedAt } = await addToTable(key, rule.windowSeconds, 1, now);
  return verdict(count, rule, startedAt + rule.windowSeconds * 1000, now);
};

/** Places in the table: one conditional upsert, so concurrent reservations on any number of instances cannot overshoot. */
export const tablePlaces: PlaceCounters = {
  async reserve(key, rule) {
    const windowMs = rule.windowSeconds * 1000;
    const now = Date.now();
    const ended = BigInt(now - windowMs);
    const rows = await db.$queryRaw<Array<{ count: number | bigint; lastRequest: number | bigint }>>`
      INSERT INTO "rateLimit" ("id", "key", "count", "lastRequest") VALUES (${randomToken(24)}, ${key}, 1, ${BigInt(now)})
      ON CONFLICT ("key") DO UPDATE SET
        "count" = CASE WHEN "rateLimit"."lastRequest" <= ${ended} THEN 1 ELSE "rateLimit"."count" + 1 END,
        "lastRequest" = CASE WHEN "rateLimit"."lastRequest" <= ${ended} THEN ${BigInt(now)} ELSE "rateLimit"."lastRequest" END
      WHERE "rateLimit"."lastRequest" <= ${ended} OR "rateLimit"."count" < ${rule.max}
      RETURNING "count", "lastRequest"`;
    if (rows.length === 1) return { place: Number(rows[0].count), windowStartedAt: Number(rows[0].lastRequest) };
    const window = await db.rateLimit.findUnique({ where: { key }, select: { lastRequest: true } });
    const startedAt = window ? Number(window.lastRequest) : now;
    return { retryAfterSeconds: Math.max(1, Math.ceil((startedAt + windowMs - now) / 1000)), windowStartedAt: startedAt };
  },
  async giveBack(key, windowStartedAt) {
    await db.rateLimit.updateMany({ where: { key, lastRequest: BigInt(windowStartedAt), count: { gt: 0 } }, data: { count: { decrement: 1 } } });
  },
  async keepSpent() {},
};

export function redisStore(url: string): Store {
  // Loaded only where Redis is configured (docs/decisions/026-load-what-is-used.md); the connection is still
  // opened at start-up, as soon as the modules are in.
  const redis = Promise.all([import("ioredis"), import("rate-limiter-flexible")]).then(([{ Redis }, flexible]) => {
    const client = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 2, lazyConnect: false });
    client.on("error", (error) => {
      incrementRedisErrors();
      console.error("[latchkey] redis:", error.message);
    });
    return { client, flexible };
  });
  const limiters = new Map<string, RateLimiterRedis>();
  let redisWasDown = false;
  // Requests that arrive while the first connection is being made wait for it (a second at most, once per
  // process), so instances sharing Redis do not count their first requests in the database instead.
  const firstConnection = redis.then(
    ({ client }) =>
      new Promise<void>((resolve) => {
        if (client.status === "ready") return resolve();
        const timer = setTimeout(resolve, 1000);
        client.once("ready", () => {
          clearTimeout(timer);
          resolve();
        });
      }),
  );
  return async (key, rule) => {
    const { client, flexible } = await redis;
    await firstConnection;
    if (client.status !== "ready") {
      // Redis is down or still connecting: count in the database at once instead of waiting in ioredis's
      // offline queue for reconnects (which back off to seconds per request). Said once per outage.
      if (!redisWasDown) console.error(`[latchkey] rate limit: Redis is not connected (${client.status}); using the database`);
      redisWasDown = true;
      return databaseStore(key, rule);
    }
    redisWasDown = false;
    const id = `${rule.windowSeconds}:${rule.max}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = new flexible.RateLimiterRedis({
        storeClient: client,
        keyPrefix: `latchkey:rl:${id}`,
        points: rule.max,
        duration: rule.windowSeconds,
      });
      limiters.set(id, limiter);
    }
    try {
      await limiter.consume(key);
      return { allowed: true, retryAfterSeconds: 0, resetAt: Date.now() };
    } catch (rejection) {
      if (rejection instanceof flexible.RateLimiterRes) {
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)),
          resetAt: Date.now() + rejection.msBeforeNext,
        };
      }
      // Redis is unreachable: keep limiting through the database rather than failing every request (or,
      // worse, letting every guess through).
      incrementRedisErrors();
      console.error("[latchkey] rate limit: Redis failed, using the database:", (rejection as Error).message);
      return databaseStore(key, rule);
    }
  };
}

/** Most keys a memory store keeps; past it, windows that have ended are dropped, then the oldest. */
const MEMORY_STORE_MAX_KEYS = 100_000;

interface Window {
  count: number;
  startedAt: number;
  windowMs: number;
}

/** Counters for a process that is the only one using its database: a Map, no I/O. */
export class MemoryCounters {
  readonly #windows = new Map<string, Window>();

  constructor() {
    setInterval(() => this.#prune(Date.now()), 60_000).unref();
  }

  /** The key's live window, a new one when the last has ended (pruning first when the map is full). */
  #liveWindow(key: string, windowMs: number, now: number) {
    let window = this.#windows.get(key);
    if (!window || window.startedAt + windowMs <= now) {
      if (this.#windows.size >= MEMORY_STORE_MAX_KEYS) this.#prune(now);
      window = { count: 0, startedAt: now, windowMs };
      this.#windows.set(key, window);
    }
    return window;
  }

  readonly take: Store = async (key, rule) => {
    const now = Date.now();
    const windowMs = rule.windowSeconds * 1000;
    const window = this.#liveWindow(key, windowMs, now);
    window.count++;
    return verdict(window.count, rule, window.startedAt + windowMs, now);
  };

  /** A place in the key's window, if one is left; a refusal takes none (PlaceCounters.reserve, without I/O). */
  reserve(key: string, rule: RateRule): Reservation {
    const now = Date.now();
    const windowMs = rule.windowSeconds * 1000;
    const window = this.#liveWindow(key, windowMs, now);
    if (window.count >= rule.max) return { retryAfterSeconds: Math.max(1, Math.ceil((window.startedAt + windowMs - now) / 1000)), windowStartedAt: window.startedAt };
    window.count++;
    return { place: window.count, windowStartedAt: window.startedAt };
  }

  /** Gives a place back to the window it was taken from (not to a later one). */
  giveBack(key: string, windowStartedAt: number): void {
    const window = this.#windows.get(key);
    if (window && window.startedAt === windowStartedAt && window.count > 0) window.count--;
  }

  /**
   * Proof of work's evidence (ADR 060): `amount` more in the key's window (a new one once it has ended); once the
   * count reaches `extendFrom`, the window starts again now, so a burst lasts a whole window past its latest piece.
   */
  addEvidence(key: string, amount: number, windowMs: number, extendFrom?: number): void {
    const now = Date.now();
    let window = this.#windows.get(key);
    if (!window || window.startedAt + window.windowMs <= now) {
      if (this.#windows.size >= MEMORY_STORE_MAX_KEYS) this.#prune(now);
      window = { count: 0, startedAt: now, windowMs };
      this.#windows.set(key, window);
    }
    window.count += amount;
    if (extendFrom !== undefined && window.count >= extendFrom) window.startedAt = now;
  }

  /** A key's window as it stands, read without counting (null when it has none, or it has ended). */
  peek(key: string): { count: number; startedAt: number } | null {
    const window = this.#windows.get(key);
    return window && window.startedAt + window.windowMs > Date.now() ? { count: window.count, startedAt: window.startedAt } : null;
  }

  /** Places kept in this map, for a process that knows it is alone. */
  readonly places: PlaceCounters = {
    reserve: async (key, rule) => this.reserve(key, rule),
    giveBack: async (key, windowStartedAt) => this.giveBack(key, windowStartedAt),
    keepSpent: writeSpentWindow,
  };

  /** Live windows of the table's keys that `select` accepts, taken into this map (a lone process's start). */
  async seedFromTable(select: (key: string) => number | null): Promise<void> {
    const now = Date.now();
    const rows = await db.$queryRaw<Array<{ key: string; count: number | bigint; lastRequest: number | bigint }>>`
      SELECT "key", "count", "lastRequest" FROM "rateLimit" WHERE "lastRequest" > ${BigInt(now - ROW_HORIZON_MS)}`;
    for (const row of rows) {
      const windowMs = select(row.key);
      const startedAt = Number(row.lastRequest);
      if (windowMs !== null && startedAt + windowMs > now) this.seed(row.key, { count: Number(row.count), startedAt, windowMs });
    }
  }

  /** Windows that have not ended, emptied out of this store (their counts are about to live elsewhere). */
  drain(): Array<[string, Window]> {
    const now = Date.now();
    const live = [...this.#windows].filter(([, window]) => window.startedAt + window.windowMs > now);
    this.#windows.clear();
    return live;
  }

  /** Takes over a window counted elsewhere. */
  seed(key: string, window: Window): void {
    if (this.#windows.size < MEMORY_STORE_MAX_KEYS) this.#windows.set(key, window);
  }

  #prune(now: number) {
    for (const [key, window] of this.#windows) if (window.startedAt + window.windowMs <= now) this.#windows.delete(key);
    for (const key of this.#windows.keys()) {
      if (this.#windows.size < MEMORY_STORE_MAX_KEYS) break;
      this.#windows.delete(key);
    }
  }
}

/** The longest window any rule has (a day: the lockout's longest, ADR 057); a row older than this cannot hold a live window. */
const ROW_HORIZON_MS = 24 * 60 * 60 * 1000;

/**
 * PostgreSQL without Redis: in memory while this process is the only one on the database, in the table
 * otherwise (ADR 025). Moving to the table adds every live window's count to it; moving back reads the live
 * windows out of it, and requests wait for that (milliseconds) so no count falls between the two.
 * `windowOf` gives a key's window length, or null for keys that are not this store's (quotas).
 */
export function peerAwareStore(
  connectionString: string,
  windowOf: (key: string) => number | null,
  isPlaceKey: (key: string) => boolean = () => false,
  isEvidenceKey: (key: string) => boolean = () => false,
): { store: Store; places: PlaceCounters; start: () => void; evidenceMemory: MemoryCounters; countsInMemory: () => Promise<boolean> } {
  const memory = new MemoryCounters();
  // Places apart, so a flood of per-address keys can never push a live lockout window out of a full map.
  const placesMemory = new MemoryCounters();
  // Proof of work's evidence apart too (ADR 060): one key per attacking address must not push either out.
  const evidenceMemory = new MemoryCounters();
  let inMemory = false;
  let moving: Promise<void> | null = null;
  let peers: ReturnType<typeof watchPostgresPeers> | null = null;

  async function toTable() {
    inMemory = false;
    for (const [key, window] of [...memory.drain(), ...placesMemory.drain(), ...evidenceMemory.drain()]) await addToTable(key, window.windowMs / 1000, window.count, window.startedAt);
    console.log("[latchkey] rate limit: another instance shares this database; counting in the database");
  }

  async function toMemory() {
    const now = Date.now();
    const rows = await db.$queryRaw<Array<{ key: string; count: number | bigint; lastRequest: number | bigint }>>`
      SELECT "key", "count", "lastRequest" FROM "rateLimit" WHERE "lastRequest" > ${BigInt(now - ROW_HORIZON_MS)}`;
    for (const row of rows) {
      const windowMs = windowOf(row.key);
      const startedAt = Number(row.lastRequest);
      const map = isPlaceKey(row.key) ? placesMemory : isEvidenceKey(row.key) ? evidenceMemory : memory;
      if (windowMs !== null && startedAt + windowMs > now) map.seed(row.key, { count: Number(row.count), startedAt, windowMs });
    }
    inMemory = true;
    console.log("[latchkey] rate limit: the only instance on this database; counting in memory");
  }

  function start() {
    peers ??= watchPostgresPeers(postgresListener(connectionString), {
      aloneChanged(alone) {
        moving = (alone ? toMemory() : toTable()).finally(() => (moving = null));
        return moving;
      },
    });
  }

  const store: Store = async (key, rule) => {
    start();
    await peers!.settled;
    if (moving) await moving.catch(() => {}); // a move that failed (the database down) was logged; count on
    return inMemory ? memory.take(key, rule) : databaseStore(key, rule);
  };
  // The same switch for places (the lockout's counts, ADR 061): in memory they cost no round trip.
  const places: PlaceCounters = {
    async reserve(key, rule) {
      start();
      await peers!.settled;
      if (moving) await moving.catch(() => {});
      return inMemory ? placesMemory.reserve(key, rule) : tablePlaces.reserve(key, rule);
    },
    async giveBack(key, windowStartedAt) {
      if (moving) await moving.catch(() => {});
      return inMemory ? placesMemory.giveBack(key, windowStartedAt) : tablePlaces.giveBack(key, windowStartedAt);
    },
    // Read back by toMemory when this process (or its successor) is alone.
    async keepSpent(key, windowStartedAt, count) {
      if (inMemory) await writeSpentWindow(key, windowStartedAt, count);
    },
  };
  /** Whether counts are in memory now (after the start-up check and any move): other counters' switch (ADR 060). */
  async function countsInMemory(): Promise<boolean> {
    start();
    await peers!.settled;
    if (moving) await moving.catch(() => {});
    return inMemory;
  }
  return { store, places, start, evidenceMemory, countsInMemory };
}
