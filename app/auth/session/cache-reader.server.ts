// Reading through the cache, apart from what it reads from (so the rules can be tested without a database).
// A hit costs a Map lookup; a miss is kept only if no change arrived while it ran (it might then be older than
// the write that was announced) and only while the change feed is connected. ADR 024.
import type { CachedSession, SessionCache } from "~/auth/session/cache.server";
import type { ChangeFeed } from "~/change-feed/feed.server";

/**
 * What a read returns is frozen and shared, not copied: nothing that reads a session changes it (a
 * SessionWithUser is read-only; a refresh makes new objects), so every request served from one entry gets the
 * same two objects, and what is made from them can be made once (presenters.server.ts).
 */
const frozen = ({ session, user }: CachedSession): CachedSession => ({ session: Object.freeze(session), user: Object.freeze(user) });

export function createSessionReader(cache: SessionCache, feed: ChangeFeed, load: (token: string) => Promise<CachedSession | null>) {
  feed.subscribe((change) => cache.invalidate(change));
  /** What the cache holds for `token` and may be trusted, synchronously; null means "read it" (`read`). */
  function peek(token: string): CachedSession | null {
    feed.start();
    feed.poll();
    if (!feed.connected) return null;
    const hit = cache.get(token);
    return hit ? { session: hit.session, user: hit.user } : null;
  }
  async function read(token: string): Promise<CachedSession | null> {
    const hit = peek(token);
    if (hit) return hit;
    const generation = feed.generation;
    const loaded = await load(token);
    if (!loaded) return null;
    const found = frozen(loaded);
    feed.poll();
    if (feed.connected && feed.generation === generation) cache.set(found);
    return found;
  }
  return { peek, read };
}
