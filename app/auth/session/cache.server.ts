// The bounded in-process copy of {session, user} by session token. It is only ever a copy: every entry came
// from the database, and any write that changes what an entry holds removes it here and on every other
// instance, as the database layer's change feed announces it (app/change-feed/;
// docs/decisions/024-session-cache-and-invalidation.md).
import type { Change } from "~/change-feed/feed.server";
import type { Session, User } from "~/db.server";

/** How often a hit moves its entry to the recent end, at most: least-recently-used within a second. */
const TOUCH_INTERVAL_MS = 1_000;

export interface CachedSession {
  session: Session;
  user: User;
}

interface Entry extends CachedSession {
  /** Past this the entry is dropped even without an invalidation: a safety net, not the mechanism. */
  staleAt: number;
  /** When the entry last moved to the recent end. */
  touchedAt: number;
}

/** A least-recently-used map with indexes by session id, user id and active organization. */
export class SessionCache {
  readonly #entries = new Map<string, Entry>();
  readonly #tokenBySessionId = new Map<string, string>();
  readonly #tokensByUserId = new Map<string, Set<string>>();
  readonly #tokensByOrganizationId = new Map<string, Set<string>>();

  constructor(
    readonly maxEntries: number,
    readonly ttlMs: number,
  ) {}

  get size(): number {
    return this.#entries.size;
  }

  get(token: string, now = Date.now()): CachedSession | null {
    const entry = this.#entries.get(token);
    if (!entry) return null;
    // Never serve what has expired, here or in the database's eyes.
    if (entry.staleAt <= now || entry.session.expiresAt.getTime() <= now) {
      this.#remove(token);
      return null;
    }
    // Re-insert (Map order is recency order), at most once a second per entry: eviction only needs it rough.
    if (now - entry.touchedAt >= TOUCH_INTERVAL_MS) {
      entry.touchedAt = now;
      this.#entries.delete(token);
      this.#entries.set(token, entry);
    }
    return entry;
  }

  set(value: CachedSession, now = Date.now()): void {
    const token = value.session.token;
    this.#remove(token);
    while (this.#entries.size >= this.maxEntries) this.#remove(this.#entries.keys().next().value as string);
    this.#entries.set(token, { ...value, staleAt: now + this.ttlMs, touchedAt: now });
    this.#tokenBySessionId.set(value.session.id, token);
    addTo(this.#tokensByUserId, value.user.id, token);
    if (value.session.activeOrganizationId) addTo(this.#tokensByOrganizationId, value.session.activeOrganizationId, token);
  }

  /** Removes exactly the entries a change names. */
  invalidate(change: Change): void {
    switch (change.kind) {
      case "all":
        return this.clear();
      case "token":
        for (const token of change.keys) this.#remove(token);
        return;
      case "session":
        for (const id of change.keys) {
          const token = this.#tokenBySessionId.get(id);
          if (token) this.#remove(token);
        }
        return;
      case "user":
        for (const id of change.keys) for (const token of [...(this.#tokensByUserId.get(id) ?? [])]) this.#remove(token);
        return;
      case "organization":
        for (const id of change.keys) {
          for (const token of [...(this.#tokensByOrganizationId.get(id) ?? [])]) this.#remove(token);
        }
        return;
    }
  }

  clear(): void {
    this.#entries.clear();
    this.#tokenBySessionId.clear();
    this.#tokensByUserId.clear();
    this.#tokensByOrganizationId.clear();
  }

  #remove(token: string): void {
    const entry = this.#entries.get(token);
    if (!entry) return;
    this.#entries.delete(token);
    this.#tokenBySessionId.delete(entry.session.id);
    removeFrom(this.#tokensByUserId, entry.user.id, token);
    if (entry.session.activeOrganizationId) removeFrom(this.#tokensByOrganizationId, entry.session.activeOrganizationId, token);
  }
}

function addTo(index: Map<string, Set<string>>, key: string, token: string) {
  const tokens = index.get(key);
  if (tokens) tokens.add(token);
  else index.set(key, new Set([token]));
}

function removeFrom(index: Map<string, Set<string>>, key: string, token: string) {
  const tokens = index.get(key);
  if (!tokens) return;
  tokens.delete(token);
  if (tokens.size === 0) index.delete(key);
}
