// Reading through the cache, apart from what it reads from (so the rules can be tested without a database).
// A hit costs a Map lookup; a miss is kept only if no invalidation arrived while it ran (it might then be older
// than the write that was announced) and only while the bus is connected. ADR 024.
import type { CachedSession, SessionCache } from "~/auth/session-cache/cache.server";
import type { InvalidationBus } from "~/auth/session-cache/bus.server";

/**
 * What a read returns is frozen and shared, not copied: nothing that reads a session changes it (a
 * SessionWithUser is read-only; a refresh makes new objects), so every request served from one entry gets the
 * same two objects, and what is made from them can be made once (presenters.server.ts).
 */
const frozen = ({ session, user }: CachedSession): CachedSession => ({ session: Object.freeze(session), user: Object.freeze(user) });

export function createSessionReader(cache: SessionCache, bus: InvalidationBus, load: (token: string) => Promise<CachedSession | null>) {
  bus.onInvalidation((invalidation) => cache.invalidate(invalidation));
  return async function read(token: string): Promise<CachedSession | null> {
    bus.start();
    bus.poll();
    if (bus.connected) {
      const hit = cache.get(token);
      if (hit) return { session: hit.session, user: hit.user };
    }
    const generation = bus.generation;
    const loaded = await load(token);
    if (!loaded) return null;
    const found = frozen(loaded);
    bus.poll();
    if (bus.connected && bus.generation === generation) cache.set(found);
    return found;
  };
}
