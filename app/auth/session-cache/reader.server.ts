// Reading through the cache, apart from what it reads from (so the rules can be tested without a database).
// A hit costs a Map lookup; a miss is kept only if no invalidation arrived while it ran (it might then be older
// than the write that was announced) and only while the bus is connected. ADR 024.
import type { CachedSession, SessionCache } from "~/auth/session-cache/cache.server";
import type { InvalidationBus } from "~/auth/session-cache/bus.server";

/** Callers may change what they get; the cached objects stay as the database gave them. */
const copy = ({ session, user }: CachedSession): CachedSession => ({ session: { ...session }, user: { ...user } });

export function createSessionReader(cache: SessionCache, bus: InvalidationBus, load: (token: string) => Promise<CachedSession | null>) {
  bus.onInvalidation((invalidation) => cache.invalidate(invalidation));
  return async function read(token: string): Promise<CachedSession | null> {
    bus.start();
    bus.poll();
    if (bus.connected) {
      const hit = cache.get(token);
      if (hit) return copy(hit);
    }
    const generation = bus.generation;
    const found = await load(token);
    if (!found) return null;
    bus.poll();
    if (bus.connected && bus.generation === generation) cache.set(copy(found));
    return found;
  };
}
