// Admission to the password hasher (issue 39 §6, docs/decisions/061-owner-first-under-a-stuffing-wave.md).
// scrypt costs ~145 ms of CPU and 32 MiB; two cores check ~14 passwords a second. Without a gate every
// stranger's guess waits in libuv's pool in arrival order, and the owner waits behind all of them. So the work
// is admitted here, a few at a time (one per core), in two lanes: the account's known devices and proven
// sessions ("owner") go first; a stranger ("stranger": any other browser, also on an identifier that has no
// account, so the lane tells nothing) is refused at once (429 TOO_MANY_REQUESTS) when the work queued ahead of
// it would keep it waiting longer than the hasher's capacity for a second, instead of being queued.
import os from "node:os";
import { AuthError } from "~/auth/errors";
import { env } from "~/env.server";

export type HasherLane = "owner" | "stranger";

export interface HasherOptions {
  /** scrypt calls in flight at once. */
  slots: number;
  /** Longest expected wait a stranger is queued for; beyond it, refused at once. */
  strangerWaitMs: number;
  /** The same for the owner's lane: only a bound on memory (its work is capped per account by the lockout). */
  ownerWaitMs: number;
  /** What one piece of work is assumed to take until some have been measured. */
  initialWorkMs: number;
  /** The span over which the surge signal weighs new devices' demand against the hasher's capacity. */
  surgeWindowMs: number;
  now?: () => number;
}

interface Waiter {
  start: () => void;
}

/** Seconds of the surge window are counted in buckets of this length, so the window slides without a list. */
const SURGE_BUCKET_MS = 1_000;
/** How fast the measured cost of a piece of work follows new measurements (an exponential moving average). */
const WORK_COST_SMOOTHING = 0.2;

export class HasherQueue {
  readonly #options: Required<HasherOptions>;
  #running = 0;
  #strangersRunning = 0;
  #ownersRunning = 0;
  readonly #owners: Waiter[] = [];
  readonly #strangers: Waiter[] = [];
  #workMs: number;
  /** Strangers' demand (wrong passwords compared, attempts refused here) per surge bucket: [bucket start, count]. */
  readonly #demand: Array<[number, number]> = [];

  constructor(options: HasherOptions) {
    this.#options = { now: () => performance.now(), ...options };
    this.#workMs = options.initialWorkMs;
  }

  /**
   * Runs `work` (one scrypt) when its lane's turn comes; throws 429 TOO_MANY_REQUESTS with Retry-After at once
   * when a stranger would wait beyond the hasher's capacity (or the owner's lane is past its bound).
   */
  async run<T>(lane: HasherLane, work: () => Promise<T>): Promise<T> {
    await this.#admit(lane);
    const started = this.#options.now();
    try {
      return await work();
    } finally {
      this.#workMs += WORK_COST_SMOOTHING * (this.#options.now() - started - this.#workMs);
      this.#release(lane);
    }
  }

  /**
   * Throws the refusal `run` would give a piece of work of this lane right now, before the caller counts
   * anything: a stranger turned away here leaves no trace in the lockout's counters (which a flood of unknown
   * identifiers would otherwise fill).
   */
  refuseIfBusy(lane: HasherLane): void {
    const { slots } = this.#options;
    if (lane === "owner") {
      if (this.#running >= slots) this.#checkWait(lane, this.#expectedWaitMs(this.#owners.length + 1, slots), this.#options.ownerWaitMs);
      return;
    }
    if (!this.#startsAtOnce()) this.#checkWait(lane, this.#strangerWaitMs(), this.#options.strangerWaitMs);
  }

  /** A stranger's password was compared and wrong: demand the surge signal weighs. */
  noteStrangerFailure(): void {
    this.#addDemand(1);
  }

  /**
   * True while strangers' demand on the hasher (wrong passwords compared plus attempts refused here) over the
   * last surge window exceeds what the hasher can serve in it: a burst across the service, not one account's.
   */
  surge(): boolean {
    const now = this.#options.now();
    const since = now - this.#options.surgeWindowMs;
    let demand = 0;
    for (const [at, count] of this.#demand) if (at > since - SURGE_BUCKET_MS) demand += count;
    return demand > this.capacityPer(this.#options.surgeWindowMs);
  }

  /** How many pieces of work the hasher serves in `ms` at the cost measured lately. */
  capacityPer(ms: number): number {
    return (this.#options.slots * ms) / Math.max(this.#workMs, 0.01);
  }

  /** For tests and the bench's curiosity: what is running and waiting. */
  get state() {
    return { running: this.#running, strangersRunning: this.#strangersRunning, ownersWaiting: this.#owners.length, strangersWaiting: this.#strangers.length, workMs: this.#workMs };
  }

  /**
   * During a surge strangers get every slot but one, so an owner never waits for a stranger's scrypt to end,
   * and none start while an owner's check runs, so it shares the cores with as little hashing as possible (the
   * ones already running finish); on a quiet server (two sign-ins from new browsers at once, say) they get them all.
   */
  #strangerSlots(): number {
    const { slots } = this.#options;
    if (slots <= 1 || !this.surge()) return slots;
    return Math.max(0, slots - 1 - this.#ownersRunning);
  }

  #admit(lane: HasherLane): Promise<void> | void {
    const { slots } = this.#options;
    if (lane === "owner") {
      if (this.#running < slots) return this.#start(lane);
      return this.#enqueue(this.#owners, lane, this.#expectedWaitMs(this.#owners.length + 1, slots), this.#options.ownerWaitMs);
    }
    if (this.#startsAtOnce()) return this.#start(lane);
    return this.#enqueue(this.#strangers, lane, this.#strangerWaitMs(), this.#options.strangerWaitMs);
  }

  #startsAtOnce(): boolean {
    const nobodyWaiting = this.#owners.length === 0 && this.#strangers.length === 0;
    return nobodyWaiting && this.#running < this.#options.slots && this.#strangersRunning < this.#strangerSlots();
  }

  /** Owners waiting go before a new stranger, and so do the strangers already waiting. */
  #strangerWaitMs(): number {
    return this.#expectedWaitMs(this.#owners.length + this.#strangers.length + 1, this.#strangerSlots());
  }

  #checkWait(lane: HasherLane, expectedWaitMs: number, limitMs: number): void {
    if (expectedWaitMs <= limitMs) return;
    if (lane === "stranger") this.#addDemand(1);
    throw hasherBusy(expectedWaitMs);
  }

  #expectedWaitMs(piecesAhead: number, slots: number): number {
    return (piecesAhead * this.#workMs) / slots;
  }

  #enqueue(queue: Waiter[], lane: HasherLane, expectedWaitMs: number, limitMs: number): Promise<void> {
    this.#checkWait(lane, expectedWaitMs, limitMs);
    return new Promise<void>((resolve) => queue.push({ start: () => (this.#start(lane), resolve()) }));
  }

  #start(lane: HasherLane): void {
    this.#running++;
    if (lane === "stranger") this.#strangersRunning++;
    else this.#ownersRunning++;
  }

  #release(lane: HasherLane): void {
    this.#running--;
    if (lane === "stranger") this.#strangersRunning--;
    else this.#ownersRunning--;
    // Owners first; strangers only within their share of the slots.
    while (this.#running < this.#options.slots) {
      const next = this.#owners.shift() ?? (this.#strangersRunning < this.#strangerSlots() ? this.#strangers.shift() : undefined);
      if (!next) return;
      next.start();
    }
  }

  #addDemand(count: number): void {
    const bucket = Math.floor(this.#options.now() / SURGE_BUCKET_MS) * SURGE_BUCKET_MS;
    const last = this.#demand.at(-1);
    if (last && last[0] === bucket) last[1] += count;
    else this.#demand.push([bucket, count]);
    const oldest = bucket - this.#options.surgeWindowMs - SURGE_BUCKET_MS;
    while (this.#demand.length && this.#demand[0][0] < oldest) this.#demand.shift();
  }
}

/** The same 429 as the per-address limit (ADR 006): clients and pages already handle it, and it names no account. */
export function hasherBusy(expectedWaitMs: number): AuthError {
  const retryAfter = String(Math.max(1, Math.ceil(expectedWaitMs / 1000)));
  return new AuthError("TOO_MANY_REQUESTS", { headers: { "Retry-After": retryAfter, "X-Retry-After": retryAfter }, reason: HASHER_BUSY });
}

const HASHER_BUSY = "hasher_busy";

/**
 * How long a busy-hasher refusal is held before it is sent (ADR 061): a timer, no CPU. Refused at once, a
 * stuffing client's connections came straight back, thousands of refusals a second that took the cores from
 * the owner's sign-in and every read; held, each connection asks about once a second. Only strangers are held,
 * and alike whether or not the account exists.
 */
export const BUSY_REFUSAL_HOLD_MS = 1_000;

/** The pause before sending `error`'s answer: BUSY_REFUSAL_HOLD_MS for a busy hasher's refusal, else none. */
export function refusalHoldMs(error: unknown): number {
  return error instanceof AuthError && error.reason === HASHER_BUSY ? BUSY_REFUSAL_HOLD_MS : 0;
}

/** Waits out `refusalHoldMs(error)`; for the endpoint and the page pipeline, which answer after awaiting. */
export async function holdRefusal(error: unknown): Promise<void> {
  const ms = refusalHoldMs(error);
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * One slot per core, and never all of libuv's pool (4 threads unless UV_THREADPOOL_SIZE says otherwise): file
 * and DNS work share it, and work queued inside libuv would wait in arrival order, past the lanes.
 */
export function hasherSlots(): number {
  const cores = typeof os.availableParallelism === "function" ? os.availableParallelism() : os.cpus().length;
  const pool = Number(process.env.UV_THREADPOOL_SIZE) || 4;
  return Math.max(1, Math.min(cores, pool - 1));
}

let queue: HasherQueue | undefined;
/** This process's hasher: each process has its own cores, so its own capacity. */
export function passwordHasher(): HasherQueue {
  queue ??= new HasherQueue({
    slots: hasherSlots(),
    strangerWaitMs: 1_000,
    ownerWaitMs: 10_000,
    // Test suites hash at a ~1 ms cost (ADR 032); the production cost is ~145 ms a call on two cores.
    initialWorkMs: env.AUTH_TEST_PASSWORD_HASHING === "fast" ? 2 : 150,
    surgeWindowMs: 10_000,
  });
  return queue;
}

/** True while wrong passwords from new devices exceed what the hasher can serve (this process, last 10 s). */
export function newDeviceSurge(): boolean {
  return queue?.surge() ?? false;
}
