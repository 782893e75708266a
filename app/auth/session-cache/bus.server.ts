// The invalidation bus: every write that changes a session or a user is announced here, delivered at once to
// this process's cache and, through one transport, to every other process on the same database. The bus also
// tells the cache whether it may be trusted: while a transport is not connected, announcements from other
// processes could be missed, so the cache is emptied and not used until it is connected again.
// See docs/decisions/024-session-cache-and-invalidation.md.
import type { Invalidation } from "~/auth/session-cache/cache.server";

export interface Transport {
  readonly name: string;
  /** Starts receiving other processes' announcements; reports connection changes through the callbacks. */
  start(callbacks: TransportCallbacks): void;
  /** Sends an announcement to every other process (this one has already applied it). */
  publish(invalidation: Invalidation): Promise<void>;
  /** A synchronous check for changes made elsewhere, run before the cache is consulted (SQLite). */
  poll?(): void;
}

export interface TransportCallbacks {
  deliver(invalidation: Invalidation): void;
  connected(isConnected: boolean): void;
}

type Listener = (invalidation: Invalidation) => void;

export class InvalidationBus {
  /** Counts every invalidation seen; a read that saw it change while it ran does not cache its result. */
  generation = 0;
  #connected = false;
  #started = false;
  #transport: Transport | null = null;
  readonly #listeners = new Set<Listener>();

  /** Whether announcements from every other process are known to arrive. */
  get connected(): boolean {
    return this.#connected;
  }

  get transportName(): string {
    return this.#transport?.name ?? "none";
  }

  use(transport: Transport): void {
    this.#transport = transport;
  }

  onInvalidation(listener: Listener): void {
    this.#listeners.add(listener);
  }

  /** Idempotent; called on the first cached read so processes that never read sessions hold no connection. */
  start(): void {
    if (this.#started || !this.#transport) return;
    this.#started = true;
    this.#transport.start({
      deliver: (invalidation) => this.#apply(invalidation),
      connected: (isConnected) => {
        // Either way, whatever was cached may have missed an announcement: start from nothing.
        this.#apply({ kind: "all" });
        this.#connected = isConnected;
      },
    });
  }

  poll(): void {
    this.#transport?.poll?.();
  }

  /** Applies an invalidation here and sends it to the other processes. Never throws: the write is done. */
  async publish(invalidation: Invalidation): Promise<void> {
    this.#apply(invalidation);
    if (!this.#transport) return;
    try {
      await this.#transport.publish(invalidation);
    } catch (error) {
      console.error(`[latchkey] session cache: could not announce an invalidation through ${this.#transport.name}:`, (error as Error).message);
    }
  }

  #apply(invalidation: Invalidation): void {
    this.generation++;
    for (const listener of this.#listeners) listener(invalidation);
  }
}

export const bus = new InvalidationBus();

/** Announcements travel as JSON; the sender's id lets a process skip its own (it applied them already). */
export const INSTANCE_ID = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
/** PostgreSQL's NOTIFY payload limit is 8000 bytes; a larger announcement becomes "everything". */
const MAX_PAYLOAD = 7_500;

export function encodeInvalidation(invalidation: Invalidation): string {
  const text = JSON.stringify({ from: INSTANCE_ID, ...invalidation });
  return text.length <= MAX_PAYLOAD ? text : JSON.stringify({ from: INSTANCE_ID, kind: "all" });
}

/** The invalidation in a message from another process, null for our own; anything unreadable means "all". */
export function decodeInvalidation(text: string): Invalidation | null {
  try {
    const message = JSON.parse(text);
    if (message?.from === INSTANCE_ID) return null;
    if (["token", "session", "user", "organization"].includes(message?.kind) && Array.isArray(message.keys)) {
      return { kind: message.kind, keys: message.keys.filter((key: unknown) => typeof key === "string") };
    }
  } catch {
    // fall through
  }
  return { kind: "all" };
}
