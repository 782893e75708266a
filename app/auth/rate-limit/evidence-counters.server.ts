// Counters that are added to and read without counting, and keys marked once: proof of work's evidence of a burst
// and its used challenges (ADR 060). Where the lockout's places live, they live (ADR 025, 061): this process's
// memory while it is provably alone (a sign-in pays no round trip for them), the shared rateLimit table otherwise,
// so two instances on one database see the same bursts and a challenge is used once across them.
import { randomToken } from "~/auth/core/crypto.server";
import type { MemoryCounters } from "~/auth/rate-limit/stores.server";
import { db } from "~/db.server";

export interface EvidenceWindow {
  count: number;
  startedAt: number;
}

export interface EvidenceCounters {
  /**
   * Adds `amount` to a key's window (a new one once the last has ended). Once the count reaches `extendFrom` the
   * window starts again with each addition; without it the window is fixed from its first (ADR 029).
   */
  add(key: string, amount: number, windowMs: number, extendFrom?: number): Promise<void>;
  /** The live windows of these keys (one query in the table); a key without one is absent. */
  read(keys: string[]): Promise<Map<string, EvidenceWindow>>;
  /** True for the first mark of a key within `windowMs`, false for every later one, however many arrive at once. */
  markOnce(key: string, windowMs: number): Promise<boolean>;
}

// 2^31 - 1: the column's largest count, i.e. never.
const NEVER = 2_147_483_647;

export const tableEvidence: EvidenceCounters = {
  async add(key, amount, windowMs, extendFrom = NEVER) {
    const now = Date.now();
    const ended = BigInt(now - windowMs);
    await db.$executeRaw`
      INSERT INTO "rateLimit" ("id", "key", "count", "lastRequest") VALUES (${randomToken(24)}, ${key}, ${amount}, ${BigInt(now)})
      ON CONFLICT ("key") DO UPDATE SET
        "count" = CASE WHEN "rateLimit"."lastRequest" <= ${ended} THEN ${amount} ELSE "rateLimit"."count" + ${amount} END,
        "lastRequest" = CASE WHEN "rateLimit"."lastRequest" <= ${ended} OR "rateLimit"."count" + ${amount} >= ${extendFrom}
          THEN ${BigInt(now)} ELSE "rateLimit"."lastRequest" END`;
  },
  async read(keys) {
    const rows = await db.rateLimit.findMany({ where: { key: { in: keys } }, select: { key: true, count: true, lastRequest: true } });
    return new Map(rows.map((row) => [row.key, { count: row.count, startedAt: Number(row.lastRequest) }]));
  },
  async markOnce(key, windowMs) {
    // A row whose window has ended may be taken over (the unique key still lets only one request do it).
    const now = Date.now();
    const rows = await db.$queryRaw<Array<{ count: number | bigint }>>`
      INSERT INTO "rateLimit" ("id", "key", "count", "lastRequest") VALUES (${randomToken(24)}, ${key}, 1, ${BigInt(now)})
      ON CONFLICT ("key") DO UPDATE SET "count" = 1, "lastRequest" = ${BigInt(now)}
      WHERE "rateLimit"."lastRequest" <= ${BigInt(now - windowMs)}
      RETURNING "count"`;
    return rows.length === 1;
  },
};

/** The same in a process's own map, for a process that knows it is alone. */
export function memoryEvidence(memory: MemoryCounters): EvidenceCounters {
  return {
    add: async (key, amount, windowMs, extendFrom) => memory.addEvidence(key, amount, windowMs, extendFrom),
    read: async (keys) => {
      const windows = new Map<string, EvidenceWindow>();
      for (const key of keys) {
        const window = memory.peek(key);
        if (window) windows.set(key, window);
      }
      return windows;
    },
    markOnce: async (key, windowMs) => "place" in memory.reserve(key, { max: 1, windowSeconds: windowMs / 1000 }),
  };
}

/** Memory while `inMemory()` says so, the table otherwise (a PostgreSQL instance that watches for peers). */
export function switchingEvidence(memory: EvidenceCounters, inMemory: () => Promise<boolean>): EvidenceCounters {
  return {
    add: async (...args) => ((await inMemory()) ? memory : tableEvidence).add(...args),
    read: async (keys) => ((await inMemory()) ? memory : tableEvidence).read(keys),
    markOnce: async (key, windowMs) => ((await inMemory()) ? memory : tableEvidence).markOnce(key, windowMs),
  };
}
