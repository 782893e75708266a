// How long proof of work's counts live (ADR 060), by key: a leaf, so the rate-limit store can move these keys
// between memory and the table (ADR 025) without importing proof of work.
export const POW_KEY_PREFIX = "pow:";
/** An address's burst: 10 wrong passwords (a per-address 429 counts 10) within this; it then lasts this long past the latest. */
export const ADDRESS_BURST_WINDOW_MS = 10 * 60 * 1000;
/** A used challenge is remembered this long: longer than any challenge lives (5 minutes). */
export const USED_CHALLENGE_WINDOW_MS = 10 * 60 * 1000;

/** The window of a proof-of-work key (`pow:<kind>:…`), or null for any other key. */
export function powKeyWindowMs(key: string, lockoutWindowSeconds: number): number | null {
  if (!key.startsWith(POW_KEY_PREFIX)) return null;
  if (key.startsWith(`${POW_KEY_PREFIX}account:`)) return lockoutWindowSeconds * 1000;
  if (key.startsWith(`${POW_KEY_PREFIX}used:`)) return USED_CHALLENGE_WINDOW_MS;
  return ADDRESS_BURST_WINDOW_MS;
}
