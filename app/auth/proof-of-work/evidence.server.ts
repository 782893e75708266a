// What proof of work remembers, in the database's rateLimit table that every instance shares (ADR 025, 029): the
// evidence of a burst (wrong passwords and per-address refusals, counted per client address and per account) and
// the challenges already used. Like the guess budgets and the lockout it is a rule about accounts and attacks, not
// traffic, so it is always the table, whatever AUTH_RATE_LIMIT says; only written when AUTH_POW is on, and read
// once per guarded request from a device the account does not know (docs/decisions/060-proof-of-work-under-a-burst.md).
// Keys start with "pow:" and are hashed, so none holds an address and none can look like another rule's key.
import { randomToken, sha256Hex } from "~/auth/core/crypto.server";
import { db } from "~/db.server";

export const powKey = (kind: "address" | "account" | "used", value: string) => `pow:${kind}:${sha256Hex(value)}`;

export interface EvidenceRule {
  windowMs: number;
  /**
   * Once the count reaches this, each further piece of evidence starts the window again: the burst lasts a whole
   * window past its latest evidence. Without it the window is fixed from its first (ADR 029).
   */
  extendFrom?: number;
}

/** Adds `amount` to a key's window (a new one once the last has ended): one statement, atomic on both databases. */
export async function addEvidence(key: string, amount: number, rule: EvidenceRule): Promise<void> {
  const now = Date.now();
  const ended = BigInt(now - rule.windowMs);
  // 2^31 - 1: the column's largest count, i.e. never.
  const extendFrom = rule.extendFrom ?? 2_147_483_647;
  await db.$executeRaw`
    INSERT INTO "rateLimit" ("id", "key", "count", "lastRequest") VALUES (${randomToken(24)}, ${key}, ${amount}, ${BigInt(now)})
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "rateLimit"."lastRequest" <= ${ended} THEN ${amount} ELSE "rateLimit"."count" + ${amount} END,
      "lastRequest" = CASE WHEN "rateLimit"."lastRequest" <= ${ended} OR "rateLimit"."count" + ${amount} >= ${extendFrom}
        THEN ${BigInt(now)} ELSE "rateLimit"."lastRequest" END`;
}

export interface EvidenceWindow {
  count: number;
  startedAt: number;
}

/** The windows of these keys, in one query; a key without a row has none. */
export async function readEvidence(keys: string[]): Promise<Map<string, EvidenceWindow>> {
  const rows = await db.rateLimit.findMany({ where: { key: { in: keys } }, select: { key: true, count: true, lastRequest: true } });
  return new Map(rows.map((row) => [row.key, { count: row.count, startedAt: Number(row.lastRequest) }]));
}

/**
 * Marks a challenge used: true for the first use, false for every later one, also when two arrive at once on
 * different instances (the unique key decides). Housekeeping removes the row with the other old rateLimit rows,
 * long after the challenge has expired.
 */
export async function markChallengeUsed(signature: string): Promise<boolean> {
  const inserted = await db.$executeRaw`
    INSERT INTO "rateLimit" ("id", "key", "count", "lastRequest") VALUES (${randomToken(24)}, ${powKey("used", signature)}, 1, ${BigInt(Date.now())})
    ON CONFLICT ("key") DO NOTHING`;
  return inserted > 0;
}
