// The session read every signed-in request makes: through this process's cache unless AUTH_SESSION_CACHE=off.
// See docs/decisions/024-session-cache-and-invalidation.md.
import { SessionCache, type CachedSession } from "~/auth/session/cache.server";
import { createSessionReader } from "~/auth/session/cache-reader.server";
import { findSessionWithUser } from "~/auth/session/store.server";
import { changeFeed } from "~/change-feed/feed.server";
import { env } from "~/env.server";
import { metrics } from "~/observability/metrics.server";

/** A safety net only (every change is announced on the feed); far below any session's lifetime. */
const ENTRY_TTL_MS = 60_000;

export const sessionCache = new SessionCache(env.AUTH_SESSION_CACHE_SIZE, ENTRY_TTL_MS);
const reader = createSessionReader(sessionCache, changeFeed, findSessionWithUser);

/** Every read is counted once as a hit or a miss (latchkey_session_cache_lookups_total, ADR 062). */
export async function readSessionWithUser(token: string): Promise<CachedSession | null> {
  const hit = env.AUTH_SESSION_CACHE === "off" ? null : reader.peek(token);
  metrics.sessionLookup(hit !== null);
  if (hit) return hit;
  return env.AUTH_SESSION_CACHE === "off" ? findSessionWithUser(token) : reader.read(token);
}

/**
 * The session from this process's cache when it holds a trustworthy copy, without waiting on anything; null
 * when it must be read (`readSessionWithUser`). The signed-in read's fast path: no promise to make or await.
 */
export function cachedSessionWithUser(token: string): CachedSession | null {
  const hit = env.AUTH_SESSION_CACHE === "off" ? null : reader.peek(token);
  // A miss here is read next through `readSessionWithUser`, which counts it.
  if (hit) metrics.sessionLookup(true);
  return hit;
}
