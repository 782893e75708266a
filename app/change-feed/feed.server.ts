// The change feed the database layer owns: every write that changes a session, user or organization row is
// announced here (by the Prisma hooks, prisma-hooks.server.ts), delivered at once to this process's
// subscribers and, through one transport (transports.server.ts), to every other process on the same database,
// whose own writes arrive here the same way. The feed also says whether it may be trusted: while a transport is
// not connected, changes made by other processes could be missed, so subscribers hear "all" and should not rely
// on what they kept until it is connected again. Its subscriber today is the session cache
// (app/auth/session/); the database layer imports nothing from app/auth (ADR 033).
// See docs/decisions/024-session-cache-and-invalidation.md.

/** What a change names: session tokens, session ids, user ids, organization ids, or everything. */
export type Change =
  | { kind: "token" | "session" | "user" | "organization"; keys: string[] }
  | { kind: "all" };

export interface Transport {
  readonly name: string;
  /** Starts receiving other processes' changes; reports connection changes through the callbacks. */
  start(callbacks: TransportCallbacks): void;
  /** Sends a change to every other process (this one has already applied it). */
  publish(change: Change): Promise<void>;
  /** A synchronous check for changes made elsewhere, run before a subscriber relies on what it kept (SQLite). */
  poll?(): void;
}

export interface TransportCallbacks {
  deliver(change: Change): void;
  connected(isConnected: boolean): void;
}

type Subscriber = (change: Change) => void;

export class ChangeFeed {
  /** Counts every change seen; a read that saw it move while it ran does not keep its result. */
  generation = 0;
  #connected = false;
  #started = false;
  #transport: Transport | null = null;
  readonly #subscribers = new Set<Subscriber>();

  /** Whether changes made by every other process are known to arrive. */
  get connected(): boolean {
    return this.#connected;
  }

  get transportName(): string {
    return this.#transport?.name ?? "none";
  }

  use(transport: Transport): void {
    this.#transport = transport;
  }

  subscribe(subscriber: Subscriber): void {
    this.#subscribers.add(subscriber);
  }

  /** Idempotent; called on the first cached read so processes that never read sessions hold no connection. */
  start(): void {
    if (this.#started || !this.#transport) return;
    this.#started = true;
    this.#transport.start({
      deliver: (change) => this.#apply(change),
      connected: (isConnected) => {
        // Either way, whatever was kept may have missed a change: start from nothing.
        this.#apply({ kind: "all" });
        this.#connected = isConnected;
      },
    });
  }

  poll(): void {
    this.#transport?.poll?.();
  }

  /** Applies a change here and sends it to the other processes. Never throws: the write is done. */
  async publish(change: Change): Promise<void> {
    this.#apply(change);
    if (!this.#transport) return;
    try {
      await this.#transport.publish(change);
    } catch (error) {
      console.error(`[latchkey] session cache: could not announce an invalidation through ${this.#transport.name}:`, (error as Error).message);
    }
  }

  #apply(change: Change): void {
    this.generation++;
    for (const subscriber of this.#subscribers) subscriber(change);
  }
}

/** The process's feed, for the one database client (app/db.server.ts). */
export const changeFeed = new ChangeFeed();

/** Changes travel as JSON; the sender's id lets a process skip its own (it applied them already). */
export const INSTANCE_ID = `${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
/** PostgreSQL's NOTIFY payload limit is 8000 bytes; a larger change becomes "everything". */
const MAX_PAYLOAD = 7_500;

export function encodeChange(change: Change): string {
  const text = JSON.stringify({ from: INSTANCE_ID, ...change });
  return text.length <= MAX_PAYLOAD ? text : JSON.stringify({ from: INSTANCE_ID, kind: "all" });
}

/** The change in a message from another process, null for our own; anything unreadable means "all". */
export function decodeChange(text: string): Change | null {
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
