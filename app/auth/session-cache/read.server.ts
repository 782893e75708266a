// The session read through the cache. A hit costs a Map lookup; a miss is the one-join database read, whose
// result is kept only if no invalidation arrived while it ran (it might then be older than the write that was
// announced) and only while the bus is connected. See docs/decisions/024-session-cache-and-invalidation.md.
import { SessionCache, type CachedSession } from "~/auth/session-cache/cache.server";
import { bus } from "~/auth/session-cache/bus.server";
import { findSessionWithUser } from "~/auth/session-store.server";
import { env } from "~/env.server";

/** A safety net only (every change is announced); far below any session's lifetime. */
const ENTRY_TTL_MS = 60_000;

export const sessionCache = new SessionCache(env.AUTH_SESSION_CACHE_SIZE, ENTRY_TTL_MS);
bus.onInvalidation((invalidation) => sessionCache.invalidate(invalidation));

/** Callers may change what they get; the cached objects stay as the database gave them. */
const copy = ({ session, user }: CachedSession): CachedSession => ({ session: { ...session }, user: { ...user } });

export async function readSessionWithUser(token: string): Promise<CachedSession | null> {
  if (env.AUTH_SESSION_CACHE === "off") return findSessionWithUser(token);
  bus.start();
  bus.poll();
  if (bus.connected) {
    const hit = sessionCache.get(token);
    if (hit) return copy(hit);
  }
  const generation = bus.generation;
  const found = await findSessionWithUser(token);
  if (!found) return null;
  bus.poll();
  if (bus.connected && bus.generation === generation) sessionCache.set(copy(found));
  return found;
}
