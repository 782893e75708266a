// When sign-in, sign-up and reset need a solved challenge (issue 39 §5): only under a burst. A burst is any of
//   - the typed account's (or unknown identifier's) new devices made ACCOUNT_BURST_FAILURES wrong passwords in the
//     lockout's window (the same events as the lockout's new-devices bucket, ADR 057);
//   - the client address got a per-address 429 on sign-in, sign-up or reset, or made ADDRESS_BURST_FAILURES wrong
//     passwords, within ADDRESS_BURST_WINDOW_MS (once reached, every further one holds the burst that long again);
//   - a global surge: wrong passwords from new devices beyond what the hasher serves (hasher-queue.server.ts).
// The evidence lives where the lockout's counts do (evidence.server.ts); a burst seen is remembered here until it
// ends, so a flood costs no read of the shared table per request. Nothing here runs while AUTH_POW is off.
// docs/decisions/060-proof-of-work-under-a-burst.md.
import { addEvidence, powKey, readEvidence } from "~/auth/proof-of-work/evidence.server";
import { clientBucket } from "~/auth/rate-limit/limits.server";
import { newDeviceSurge } from "~/auth/sign-in/hasher-queue.server";
import { afterResponse } from "~/background-work.server";
import { ADDRESS_BURST_WINDOW_MS } from "~/auth/proof-of-work/windows";
import { env } from "~/env.server";

export const ACCOUNT_BURST_FAILURES = 5;
export const ADDRESS_BURST_FAILURES = 10;
export { ADDRESS_BURST_WINDOW_MS };

/** Whose failures are counted: an account, or a typed identifier that has none (counted alike: no oracle). */
export type BurstSubject = { userId: string } | { identifier: string };

/** A burst, and when it ends (null: a global surge, whose end nobody knows ahead). */
export interface Burst {
  untilMs: number | null;
}

const accountKey = (subject: BurstSubject) => powKey("account", "userId" in subject ? `user:${subject.userId}` : `id:${subject.identifier}`);
const addressKey = (clientIp: string) => powKey("address", clientBucket(clientIp));
const accountWindowMs = () => env.AUTH_LOCKOUT_WINDOW_SECONDS * 1000;

/** Bound on remembered keys (bursts seen, refusals noted); past it, ended entries go, then the oldest. */
const MAX_REMEMBERED = 100_000;

function remember(map: Map<string, number>, key: string, untilMs: number, now: number): void {
  if (map.size >= MAX_REMEMBERED) {
    for (const [known, until] of map) if (until <= now) map.delete(known);
    for (const known of map.keys()) {
      if (map.size < MAX_REMEMBERED) break;
      map.delete(known);
    }
  }
  map.set(key, untilMs);
}

/** Keys seen in a burst, until its end as read (another instance may have made it longer: read again then). */
const burstSeenUntil = new Map<string, number>();

/**
 * The burst this request falls under, or null. `subject` is the typed account or identifier (null: a page before
 * anything is typed, which can only know about the address and the surge).
 */
export async function burstFor(clientIp: string, subject: BurstSubject | null): Promise<Burst | null> {
  if (newDeviceSurge()) return { untilMs: null };
  const now = Date.now();
  const keys: Array<[string, number, number]> = [[addressKey(clientIp), ADDRESS_BURST_WINDOW_MS, ADDRESS_BURST_FAILURES]];
  if (subject) keys.push([accountKey(subject), accountWindowMs(), ACCOUNT_BURST_FAILURES]);
  for (const [key] of keys) {
    const until = burstSeenUntil.get(key);
    if (until !== undefined && until > now) return { untilMs: until };
  }
  const windows = await readEvidence(keys.map(([key]) => key));
  let untilMs = 0;
  for (const [key, windowMs, threshold] of keys) {
    const window = windows.get(key);
    const ends = window ? window.startedAt + windowMs : 0;
    if (!window || ends <= now || window.count < threshold) continue;
    remember(burstSeenUntil, key, ends, now);
    untilMs = Math.max(untilMs, ends);
  }
  return untilMs > now ? { untilMs } : null;
}

/**
 * A password was compared and was wrong (sign-in by e-mail or username, API or page): evidence against the client
 * address, and, from a device the account does not know, against the account (or the unknown identifier).
 * Written after the answer.
 */
export function noteWrongPassword(clientIp: string, subject: BurstSubject, knownDevice: boolean): void {
  if (env.AUTH_POW === "off") return;
  afterResponse(() => addEvidence(addressKey(clientIp), 1, { windowMs: ADDRESS_BURST_WINDOW_MS, extendFrom: ADDRESS_BURST_FAILURES }));
  if (!knownDevice) afterResponse(() => addEvidence(accountKey(subject), 1, { windowMs: accountWindowMs() }));
}

/** Paths (as rate-limited, ADR 006) whose per-address 429 starts a burst for the address. */
const BURST_PATHS = ["/sign-in/", "/sign-up/", "/request-password-reset", "/forget-password", "/email-otp/request-password-reset"];

/** Each address's 429 is written at most this often per process: under a flood, not one write per refusal. */
const REFUSAL_NOTE_INTERVAL_MS = 60 * 1000;
const refusalNotedUntil = new Map<string, number>();

/** The per-address limit refused this client on `path`: on sign-in, sign-up or reset that starts a burst. */
export function noteRateLimitRefusal(clientIp: string, path: string): void {
  if (env.AUTH_POW === "off" || !BURST_PATHS.some((prefix) => path.startsWith(prefix))) return;
  const key = addressKey(clientIp);
  const now = Date.now();
  if ((refusalNotedUntil.get(key) ?? 0) > now) return;
  remember(refusalNotedUntil, key, now + REFUSAL_NOTE_INTERVAL_MS, now);
  remember(burstSeenUntil, key, now + ADDRESS_BURST_WINDOW_MS, now);
  afterResponse(() => addEvidence(key, ADDRESS_BURST_FAILURES, { windowMs: ADDRESS_BURST_WINDOW_MS, extendFrom: ADDRESS_BURST_FAILURES }));
}
