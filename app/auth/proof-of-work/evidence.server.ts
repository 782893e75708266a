// What proof of work remembers (docs/decisions/060-proof-of-work-under-a-burst.md): the evidence of a burst
// (wrong passwords and per-address refusals, counted per client address and per account) and the challenges
// already used. It lives where the lockout's places do (app/auth/rate-limit/evidence-counters.server.ts): this
// process's memory while it is provably alone, the shared rateLimit table once another instance shares the
// database, so every instance sees the same bursts and a challenge is used once across them. Like the guess budgets
// and the lockout it is a rule about accounts and attacks, not traffic, so it holds whatever AUTH_RATE_LIMIT says;
// nothing is written or read while AUTH_POW is off. Keys start with "pow:" and are hashed: none holds an address.
import { sha256Hex } from "~/auth/core/crypto.server";
import type { EvidenceWindow } from "~/auth/rate-limit/evidence-counters.server";
import { powEvidence } from "~/auth/rate-limit/limits.server";
import { USED_CHALLENGE_WINDOW_MS } from "~/auth/proof-of-work/windows";

export type { EvidenceWindow };

export const powKey = (kind: "address" | "account" | "used", value: string) => `pow:${kind}:${sha256Hex(value)}`;

export interface EvidenceRule {
  windowMs: number;
  /**
   * Once the count reaches this, each further piece of evidence starts the window again: the burst lasts a whole
   * window past its latest evidence. Without it the window is fixed from its first (ADR 029).
   */
  extendFrom?: number;
}

/** Adds `amount` to a key's window (a new one once the last has ended). */
export function addEvidence(key: string, amount: number, rule: EvidenceRule): Promise<void> {
  return powEvidence.add(key, amount, rule.windowMs, rule.extendFrom);
}

/** The windows of these keys, read together; a key without one is absent. */
export function readEvidence(keys: string[]): Promise<Map<string, EvidenceWindow>> {
  return powEvidence.read(keys);
}

/** Marks a challenge used: true for the first use, false for every later one, also when two arrive at once. */
export function markChallengeUsed(signature: string): Promise<boolean> {
  return powEvidence.markOnce(powKey("used", signature), USED_CHALLENGE_WINDOW_MS);
}
