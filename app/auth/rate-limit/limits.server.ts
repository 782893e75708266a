// Rate limiting (on by default): which paths count, in which bucket, against which rule. Counters live where
// every instance that may serve the client sees them (app/auth/rate-limit/stores.server.ts): Redis when
// REDIS_URL is set, the database's rateLimit table when several processes may share the database, and this
// process's memory when it is alone — one SQLite process, or a PostgreSQL instance that no other shares its
// database with — so there is no write per request there. See docs/decisions/006-rate-limiting.md, 024, 025.
import cluster from "node:cluster";
import { AuthError } from "~/auth/errors";
import { databaseStore, MemoryCounters, peerAwareStore, redisStore, tablePlaces, type PlaceCounters, type RateRule, type Store, type Verdict } from "~/auth/rate-limit/stores.server";
import { memoryEvidence, switchingEvidence, tableEvidence, type EvidenceCounters } from "~/auth/rate-limit/evidence-counters.server";
import { POW_KEY_PREFIX, powKeyWindowMs } from "~/auth/proof-of-work/windows";
import { databaseKind, db } from "~/db.server";
import { env } from "~/env.server";

export type { RateRule } from "~/auth/rate-limit/stores.server";

/** Credential-guessing paths: a few tries per window and client address. */
export const CREDENTIAL_RULE: RateRule = { windowSeconds: 10, max: 3 };
/** Paths that send e-mail: a few per minute, so nobody can use us to flood an inbox. */
export const MAIL_RULE: RateRule = { windowSeconds: 60, max: 3 };
export const DEFAULT_RULE: RateRule = { windowSeconds: 10, max: 100 };

const CREDENTIAL_PATHS = ["/sign-in/", "/sign-up/", "/change-password", "/change-email", "/two-factor/", "/email-otp/", "/reverify/"];
const MAIL_PATHS = [
  "/forget-password",
  "/request-password-reset",
  "/send-verification-email",
  "/two-factor/send-otp",
  "/email-otp/send-verification-otp",
  "/email-otp/request-password-reset",
  "/passkey/sign-up/send-code",
  "/reverify/send-otp",
];
/** Reads of an unguessable signed cookie; limiting them would only slow every page. */
const UNLIMITED_PATHS = new Set(["/get-session", "/ok"]);

/** Paths that are one endpoint under two names count as one bucket. */
const ALIASES: Record<string, string> = {
  "/forget-password": "/request-password-reset",
  "/forget-password/email-otp": "/email-otp/request-password-reset",
};

/**
 * The rules as this process counts them: test suites stretch the windows (AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR, refused
 * outside loopback), so the requests that fill a window always land in it however slow the machine.
 */
const stretched = (rule: RateRule): RateRule =>
  env.AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR === 1 ? rule : { ...rule, windowSeconds: rule.windowSeconds * env.AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR };
const COUNTED = { credential: stretched(CREDENTIAL_RULE), mail: stretched(MAIL_RULE), other: stretched(DEFAULT_RULE) };

export function ruleFor(path: string): RateRule | null {
  if (UNLIMITED_PATHS.has(path)) return null;
  if (MAIL_PATHS.some((prefix) => path.startsWith(prefix))) return COUNTED.mail;
  if (CREDENTIAL_PATHS.some((prefix) => path.startsWith(prefix))) return COUNTED.credential;
  return COUNTED.other;
}

/** The most keys remembered as refused (a bound for the memory target). */
const REFUSED_KEYS_LIMIT = 100_000;

/**
 * Shared counters wherever another process may serve the same clients; memory for a lone SQLite process; on
 * PostgreSQL without Redis, memory for exactly as long as no other instance is on the database (ADR 025).
 */
function chooseStoreKind(): "memory" | "database" | "redis" | "peers" {
  if (env.AUTH_RATE_LIMIT_STORE) return env.AUTH_RATE_LIMIT_STORE;
  if (env.REDIS_URL) return "redis";
  if (databaseKind === "postgres") return "peers";
  return cluster.isWorker ? "database" : "memory";
}

/** A counted key's window length: `bucket|path` keys, the lockout's places, proof of work's counts (quota keys are never in memory). */
function windowOfKey(key: string): number | null {
  if (key.startsWith(LOCKOUT_KEY_PREFIX)) return env.AUTH_LOCKOUT_WINDOW_SECONDS * 1000;
  if (key.startsWith(POW_KEY_PREFIX)) return powKeyWindowMs(key, env.AUTH_LOCKOUT_WINDOW_SECONDS);
  const path = key.slice(key.lastIndexOf("|") + 1);
  const rule = path.startsWith("/") ? ruleFor(path) : null;
  return rule ? rule.windowSeconds * 1000 : null;
}

const storeKind = chooseStoreKind();
const sharedStore: Store = storeKind === "redis" ? redisStore(env.REDIS_URL!) : databaseStore;
// The lockout counts in memory when the limits would (ADR 061), in a map of its own, so it needs the peer watch
// even with the rate limit off.
const peerAware =
  (env.AUTH_RATE_LIMIT !== "off" || env.AUTH_LOCKOUT !== "off" || env.AUTH_POW === "on") && storeKind === "peers"
    ? peerAwareStore(
        env.DATABASE_URL!,
        windowOfKey,
        (key) => key.startsWith(LOCKOUT_KEY_PREFIX),
        (key) => key.startsWith(POW_KEY_PREFIX),
      )
    : null;
const memoryCounters = storeKind === "memory" ? new MemoryCounters() : null;
const store: Store | null =
  env.AUTH_RATE_LIMIT === "off" ? null : memoryCounters ? memoryCounters.take : peerAware ? peerAware.store : sharedStore;

/** Keys of the lockout's places (app/auth/sign-in/password-lockout.server.ts): hashed, never like a `bucket|path`. */
export const LOCKOUT_KEY_PREFIX = "lockout:";

/**
 * Where the lockout's places live (ADR 057, 061): this process's memory while it is provably alone (a lone SQLite
 * process; a PostgreSQL instance with no peer, moving to the table the moment one joins), so a sign-in pays no
 * round trip for its count; the table otherwise (several instances, Redis configured, or memory forced on
 * PostgreSQL), whose one conditional upsert keeps "counted before compared" across instances.
 */
const lockoutMemory = memoryCounters && databaseKind === "sqlite" && !cluster.isWorker ? new MemoryCounters() : null;
/** The predecessor's locks, read once at start; reservations wait for it (milliseconds, once). */
let lockoutSeeded: Promise<void> = Promise.resolve();
export const lockoutPlaces: PlaceCounters = lockoutMemory
  ? { ...lockoutMemory.places, reserve: (key, rule) => lockoutSeeded.then(() => lockoutMemory.places.reserve(key, rule)) }
  : peerAware
    ? peerAware.places
    : tablePlaces;

/**
 * Where proof of work's evidence and used challenges live (ADR 060): as the lockout's places, in memory while this
 * process is provably alone and in the shared table otherwise.
 */
export const powEvidence: EvidenceCounters =
  env.AUTH_POW === "off"
    ? tableEvidence // never used: nothing counts while it is off
    : memoryCounters && databaseKind === "sqlite" && !cluster.isWorker
      ? memoryEvidence(new MemoryCounters())
      : peerAware
        ? switchingEvidence(memoryEvidence(peerAware.evidenceMemory), peerAware.countsInMemory)
        : tableEvidence;

/** Called once at server start, so a PostgreSQL instance knows whether it is alone before its first request. */
export function startRateLimiting(): void {
  peerAware?.start();
  // A lone SQLite process's predecessor left its locks in the table (ADR 061); the peer-aware store reads them
  // back itself when it finds it is alone.
  if (lockoutMemory && env.AUTH_LOCKOUT !== "off") {
    lockoutSeeded = lockoutMemory
      .seedFromTable((key) => (key.startsWith(LOCKOUT_KEY_PREFIX) ? env.AUTH_LOCKOUT_WINDOW_SECONDS * 1000 : null))
      .catch((error) => console.error("[latchkey] lockout: reading the locks left in the table failed:", (error as Error).message));
  }
}

export function tooManyRequests(retryAfterSeconds: number): AuthError {
  const retryAfter = String(retryAfterSeconds);
  return new AuthError("TOO_MANY_REQUESTS", { headers: { "Retry-After": retryAfter, "X-Retry-After": retryAfter } });
}

/**
 * The bucket a client address counts in. IPv6 clients are counted per /64: one host usually holds a whole /64,
 * so per-address counting would let it rotate through 2^64 addresses.
 */
export function clientBucket(clientIp: string): string {
  const address = clientIp.startsWith("::ffff:") && clientIp.includes(".") ? clientIp.slice(7) : clientIp;
  if (!address.includes(":")) return address;
  const groups = expandIpv6(address);
  return groups ? `${groups.slice(0, 4).join(":")}::/64` : address;
}

/** The eight 16-bit groups of an IPv6 address (zone and embedded IPv4 handled), or null if it is not one. */
function expandIpv6(address: string): string[] | null {
  let text = address.split("%")[0].toLowerCase();
  const v4 = text.match(/(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number);
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split("::");
  if (halves.length > 2) return null;
  const head = halves[0] ? halves[0].split(":") : [];
  const tail = halves.length === 2 && halves[1] ? halves[1].split(":") : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return null;
  const groups = [...head, ...Array(halves.length === 2 ? missing : 0).fill("0"), ...tail];
  if (!groups.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return null;
  return groups.map((group) => group.replace(/^0+(?=.)/, ""));
}

/**
 * Buckets this process has seen refused, until their window ends. A fixed window's count only grows, so a
 * refused bucket stays refused until then: a flood is answered here without asking the shared store again.
 */
const refusedUntil = new Map<string, number>();
/**
 * Quotas (takeFromQuota) this process has seen spent, until their window ends, for the same reason: a repeated
 * mail — the new-device notice of a client that keeps no cookies, signing in again and again — is then refused
 * without a write to the shared store (issue 39: the quiet sign-in's cost).
 */
const spentQuotaUntil = new Map<string, number>();
setInterval(() => {
  const now = Date.now();
  for (const memory of [refusedUntil, spentQuotaUntil]) for (const [key, until] of memory) if (until <= now) memory.delete(key);
}, 60_000).unref();

const bucketKey = (clientIp: string, path: string) => `${clientBucket(clientIp)}|${ALIASES[path] ?? path}`;

/** The 429 a bucket already refused in this process still earns (its window has not ended), without counting. */
function standingRefusalOf(key: string): AuthError | null {
  const until = refusedUntil.get(key);
  if (until === undefined) return null;
  const now = Date.now();
  if (until > now) return tooManyRequests(Math.max(1, Math.ceil((until - now) / 1000)));
  refusedUntil.delete(key);
  return null;
}

/**
 * Whether this client is still refused on this path, answered synchronously from this process's memory: the
 * production dispatch asks before it builds a request, so a flood costs less than the lightest route.
 */
export function standingRefusal(clientIp: string, path: string): AuthError | null {
  if (!store || refusedUntil.size === 0 || !ruleFor(path)) return null;
  return standingRefusalOf(bucketKey(clientIp, path));
}

/** Counts this request against its path's bucket for the client address; throws 429 past the limit. */
export async function enforceRateLimit(clientIp: string, path: string): Promise<void> {
  const rule = store && ruleFor(path);
  if (!store || !rule) return;
  const key = bucketKey(clientIp, path);
  const refusal = standingRefusalOf(key);
  if (refusal) throw refusal;
  const verdict = await store(key, rule);
  if (!verdict.allowed) {
    if (refusedUntil.size < REFUSED_KEYS_LIMIT) refusedUntil.set(key, verdict.resetAt);
    throw tooManyRequests(verdict.retryAfterSeconds);
  }
}

/**
 * Counts one use of a quota that is not about a client address (mail to one recipient). It holds even with
 * AUTH_RATE_LIMIT=off, and always in a durable shared store (Redis or the database, never memory): it is
 * taken once per e-mail sent, and a restart must not hand out a new hour's worth.
 */
export async function takeFromQuota(key: string, rule: RateRule): Promise<Verdict> {
  const until = spentQuotaUntil.get(key);
  if (until !== undefined) {
    const now = Date.now();
    if (until > now) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((until - now) / 1000)), resetAt: until };
    spentQuotaUntil.delete(key);
  }
  const verdict = await sharedStore(key, rule);
  // Refused, or a quota of one just taken: spent until its window ends, as a refused bucket is.
  if ((!verdict.allowed || rule.max === 1) && spentQuotaUntil.size < REFUSED_KEYS_LIMIT) spentQuotaUntil.set(key, verdict.resetAt);
  return verdict;
}

/** Rows whose window ended long ago (called by housekeeping). */
export async function deleteStaleRateLimits(olderThanMs: number): Promise<void> {
  await db.rateLimit.deleteMany({ where: { lastRequest: { lt: BigInt(Date.now() - olderThanMs) } } });
}
