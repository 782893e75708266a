// Rate limiting (on by default). Counters live where every app instance sees them: Redis when REDIS_URL is set
// (rate-limiter-flexible), otherwise the database's rateLimit table (one atomic upsert per request).
// Fixed windows; see docs/decisions/006-rate-limiting.md.
import { Redis } from "ioredis";
import { RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { AuthError } from "~/auth/errors";
import { randomToken } from "~/auth/crypto.server";
import { db } from "~/db.server";
import { env } from "~/env.server";

export interface RateRule {
  windowSeconds: number;
  max: number;
}

/** Credential-guessing paths: a few tries per window and client address. */
export const CREDENTIAL_RULE: RateRule = { windowSeconds: 10, max: 3 };
/** Paths that send e-mail: a few per minute, so nobody can use us to flood an inbox. */
export const MAIL_RULE: RateRule = { windowSeconds: 60, max: 3 };
export const DEFAULT_RULE: RateRule = { windowSeconds: 10, max: 100 };

const CREDENTIAL_PATHS = ["/sign-in/", "/sign-up/", "/change-password", "/change-email"];
const MAIL_PATHS = ["/forget-password", "/request-password-reset", "/send-verification-email", "/passkey/sign-up/send-code"];
/** Reads of an unguessable signed cookie; limiting them would only slow every page. */
const UNLIMITED_PATHS = new Set(["/get-session", "/ok"]);

/** Paths that are one endpoint under two names count as one bucket. */
const ALIASES: Record<string, string> = { "/forget-password": "/request-password-reset" };

export function ruleFor(path: string): RateRule | null {
  if (UNLIMITED_PATHS.has(path)) return null;
  if (CREDENTIAL_PATHS.some((prefix) => path.startsWith(prefix))) return CREDENTIAL_RULE;
  if (MAIL_PATHS.some((prefix) => path.startsWith(prefix))) return MAIL_RULE;
  return DEFAULT_RULE;
}

interface Verdict {
  allowed: boolean;
  retryAfterSeconds: number;
}

type Store = (key: string, rule: RateRule) => Promise<Verdict>;

const databaseStore: Store = async (key, rule) => {
  const now = Date.now();
  const windowStartedBefore = BigInt(now - rule.windowSeconds * 1000);
  // One statement, so concurrent requests from several instances cannot both read a stale count.
  const rows = await db.$queryRaw<Array<{ count: number | bigint; lastRequest: number | bigint }>>`
    INSERT INTO "rateLimit" ("id", "key", "count", "lastRequest") VALUES (${randomToken(24)}, ${key}, 1, ${BigInt(now)})
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "rateLimit"."lastRequest" <= ${windowStartedBefore} THEN 1 ELSE "rateLimit"."count" + 1 END,
      "lastRequest" = CASE WHEN "rateLimit"."lastRequest" <= ${windowStartedBefore} THEN ${BigInt(now)} ELSE "rateLimit"."lastRequest" END
    RETURNING "count", "lastRequest"`;
  const count = Number(rows[0].count);
  const windowEnds = Number(rows[0].lastRequest) + rule.windowSeconds * 1000;
  return { allowed: count <= rule.max, retryAfterSeconds: Math.max(1, Math.ceil((windowEnds - now) / 1000)) };
};

function redisStore(url: string): Store {
  const client = new Redis(url, { enableOfflineQueue: true, maxRetriesPerRequest: 2, lazyConnect: false });
  client.on("error", (error) => console.error("[latchkey] redis:", error.message));
  const limiters = new Map<string, RateLimiterRedis>();
  return async (key, rule) => {
    const id = `${rule.windowSeconds}:${rule.max}`;
    let limiter = limiters.get(id);
    if (!limiter) {
      limiter = new RateLimiterRedis({
        storeClient: client,
        keyPrefix: `latchkey:rl:${id}`,
        points: rule.max,
        duration: rule.windowSeconds,
      });
      limiters.set(id, limiter);
    }
    try {
      await limiter.consume(key);
      return { allowed: true, retryAfterSeconds: 0 };
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) {
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
      }
      // Redis is unreachable: keep limiting through the database rather than failing every request (or,
      // worse, letting every guess through).
      console.error("[latchkey] rate limit: Redis failed, using the database:", (rejection as Error).message);
      return databaseStore(key, rule);
    }
  };
}

const store: Store | null = env.AUTH_RATE_LIMIT === "off" ? null : env.REDIS_URL ? redisStore(env.REDIS_URL) : databaseStore;

/** Counts this request against its path's bucket for the client address; throws 429 past the limit. */
export async function enforceRateLimit(clientIp: string, path: string): Promise<void> {
  const rule = store && ruleFor(path);
  if (!store || !rule) return;
  const verdict = await store(`${clientIp}|${ALIASES[path] ?? path}`, rule);
  if (!verdict.allowed) {
    const retryAfter = String(verdict.retryAfterSeconds);
    throw new AuthError("TOO_MANY_REQUESTS", { headers: { "Retry-After": retryAfter, "X-Retry-After": retryAfter } });
  }
}

/** Rows whose window ended long ago (called by housekeeping). */
export async function deleteStaleRateLimits(olderThanMs: number): Promise<void> {
  await db.rateLimit.deleteMany({ where: { lastRequest: { lt: BigInt(Date.now() - olderThanMs) } } });
}
