// The password hasher's admission rules, in process (issue 39 §6, ADR 061): the owner's lane goes first, a
// stranger who would wait beyond the hasher's capacity is refused at once (429 TOO_MANY_REQUESTS with
// Retry-After) instead of queued, a surge keeps one slot for owners, and the surge signal follows strangers'
// demand against capacity. Work here is a promise the test resolves, and time a clock it moves: nothing is timed.
import { describe, expect, it } from "vitest";
import { AuthError } from "~/auth/errors";
import { HasherQueue, type HasherLane, type HasherOptions } from "~/auth/sign-in/hasher-queue.server";

/** A queue on a clock the test moves, whose pieces of work end when the test says. */
function harness(options: Partial<HasherOptions> = {}) {
  let now = 0;
  const queue = new HasherQueue({ slots: 2, strangerWaitMs: 1_000, ownerWaitMs: 10_000, initialWorkMs: 100, surgeWindowMs: 10_000, now: () => now, ...options });
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  /** Asks for a turn; the work records that it started and waits to be finished. */
  const submit = (lane: HasherLane, name: string) =>
    queue.run(lane, () => {
      started.push(name);
      return new Promise<string>((resolve) => finishers.set(name, () => resolve(name)));
    });
  const finish = async (name: string, afterMs = 100) => {
    now += afterMs;
    finishers.get(name)!();
    await settle();
  };
  return { queue, started, submit, finish, advance: (ms: number) => (now += ms) };
}

/** Lets promise callbacks run (a turn handed on starts its work a few microtasks later). */
const settle = () => new Promise((resolve) => setImmediate(resolve));

async function refusal(promise: Promise<unknown>): Promise<AuthError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  return error as AuthError;
}

describe("the password hasher's queue", () => {
  it("runs one piece of work per slot at once, and the next when one ends", async () => {
    const { started, submit, finish } = harness();
    void submit("stranger", "a");
    void submit("stranger", "b");
    const c = submit("stranger", "c");
    await settle();
    expect(started).toEqual(["a", "b"]);
    await finish("a");
    expect(started).toEqual(["a", "b", "c"]);
    await finish("c");
    expect(await c).toBe("c");
  });

  it("lets a waiting owner go before every waiting stranger", async () => {
    const { started, submit, finish } = harness();
    for (const name of ["s1", "s2", "s3", "s4"]) void submit("stranger", name);
    void submit("owner", "owner");
    await settle();
    expect(started).toEqual(["s1", "s2"]);
    await finish("s1");
    expect(started).toEqual(["s1", "s2", "owner"]);
    await finish("s2");
    expect(started).toEqual(["s1", "s2", "owner", "s3"]);
  });

  it("refuses a stranger at once, 429 with Retry-After, when the work ahead of it exceeds a second of the hasher's capacity", async () => {
    const { queue, started, submit } = harness();
    // Two running, and room for 1000 ms × 2 slots ÷ 100 ms = 20 waiting.
    const waiting = Array.from({ length: 22 }, (_, i) => submit("stranger", `s${i}`));
    await settle();
    expect(queue.state).toMatchObject({ running: 2, strangersWaiting: 20 });
    const error = await refusal(submit("stranger", "one too many"));
    expect(error.status).toBe(429);
    expect(error.code).toBe("TOO_MANY_REQUESTS");
    expect(error.headers["Retry-After"]).toMatch(/^[1-9]\d*$/);
    expect(error.headers["X-Retry-After"]).toBe(error.headers["Retry-After"]);
    expect(started).not.toContain("one too many");
    void waiting;
  });

  it("still queues an owner where a stranger is refused", async () => {
    const { queue, submit } = harness();
    for (let i = 0; i < 22; i++) void submit("stranger", `s${i}`);
    await settle();
    await refusal(submit("stranger", "refused"));
    void submit("owner", "owner");
    await settle();
    expect(queue.state.ownersWaiting).toBe(1);
  });

  it("bounds the owner's lane too, only further out", async () => {
    const { submit } = harness({ ownerWaitMs: 300 });
    for (let i = 0; i < 2 + 6; i++) void submit("owner", `o${i}`);
    await settle();
    const error = await refusal(submit("owner", "one too many"));
    expect(error.code).toBe("TOO_MANY_REQUESTS");
  });

  it("learns what a piece of work costs: cheap work lets more strangers wait", async () => {
    const { queue, submit, finish } = harness({ initialWorkMs: 1_000 });
    void submit("stranger", "a");
    void submit("stranger", "b");
    await settle();
    // At 1 s a piece, two waiting strangers already mean a second's wait: the third is refused.
    void submit("stranger", "c");
    void submit("stranger", "d");
    await refusal(submit("stranger", "e"));
    for (const name of ["a", "b", "c", "d"]) await finish(name, 1);
    expect(queue.state.workMs).toBeLessThan(500);
    for (let i = 0; i < 4; i++) void submit("stranger", `late${i}`);
    await settle();
    expect(queue.state.strangersWaiting).toBe(2);
  });

  it("signals a surge when strangers' demand over the window exceeds the hasher's capacity, and lets it go", async () => {
    const { queue, advance } = harness({ surgeWindowMs: 10_000 });
    // Capacity over 10 s: 2 slots × 10 000 ms ÷ 100 ms = 200 pieces.
    expect(queue.capacityPer(10_000)).toBe(200);
    for (let i = 0; i < 200; i++) queue.noteStrangerFailure();
    expect(queue.surge()).toBe(false);
    queue.noteStrangerFailure();
    expect(queue.surge()).toBe(true);
    advance(12_000);
    expect(queue.surge()).toBe(false);
  });

  it("counts strangers refused here as demand", async () => {
    const { queue, submit } = harness({ surgeWindowMs: 1_000, strangerWaitMs: 0 });
    // Capacity over 1 s: 20. Two run; every later stranger is refused at once.
    void submit("stranger", "a");
    void submit("stranger", "b");
    await settle();
    for (let i = 0; i < 21; i++) await refusal(submit("stranger", `r${i}`));
    expect(queue.surge()).toBe(true);
  });

  it("during a surge keeps one slot for owners: strangers run one at a time, an owner starts at once", async () => {
    const { queue, started, submit, finish } = harness({ surgeWindowMs: 10_000 });
    for (let i = 0; i < 201; i++) queue.noteStrangerFailure();
    expect(queue.surge()).toBe(true);
    void submit("stranger", "s1");
    void submit("stranger", "s2");
    await settle();
    expect(started).toEqual(["s1"]);
    void submit("owner", "owner");
    await settle();
    expect(started).toEqual(["s1", "owner"]);
    await finish("owner");
    expect(started).toEqual(["s1", "owner"]); // the free slot stays the owners'
    await finish("s1");
    expect(started).toEqual(["s1", "owner", "s2"]);
  });

  it("during a surge starts no stranger while an owner's check runs; the one already running finishes", async () => {
    const { queue, started, submit, finish } = harness({ surgeWindowMs: 10_000 });
    for (let i = 0; i < 201; i++) queue.noteStrangerFailure();
    void submit("stranger", "s1");
    void submit("stranger", "s2");
    void submit("stranger", "s3");
    await settle();
    void submit("owner", "owner");
    await settle();
    expect(started).toEqual(["s1", "owner"]);
    await finish("s1");
    expect(started).toEqual(["s1", "owner"]); // the owner's scrypt has the hashing to itself
    await finish("owner");
    expect(started).toEqual(["s1", "owner", "s2"]);
  });

  it("on a quiet server gives strangers every slot", async () => {
    const { started, submit } = harness();
    void submit("stranger", "s1");
    void submit("stranger", "s2");
    await settle();
    expect(started).toEqual(["s1", "s2"]);
  });

  it("says ahead of time whether a stranger would be refused, counting nothing, and never turns an owner away early", async () => {
    const { queue, submit } = harness();
    expect(() => queue.refuseIfBusy("stranger")).not.toThrow();
    for (let i = 0; i < 22; i++) void submit("stranger", `s${i}`);
    await settle();
    expect(() => queue.refuseIfBusy("stranger")).toThrow(AuthError);
    expect(() => queue.refuseIfBusy("owner")).not.toThrow();
    expect(queue.state).toMatchObject({ running: 2, strangersWaiting: 20, ownersWaiting: 0 });
  });

  it("frees the slot when the work fails", async () => {
    const { queue } = harness();
    await expect(queue.run("stranger", () => Promise.reject(new Error("scrypt failed")))).rejects.toThrow("scrypt failed");
    expect(queue.state.running).toBe(0);
  });

  it("marks its refusal to be held a second before it is sent, and no other refusal (ADR 061)", async () => {
    const { BUSY_REFUSAL_HOLD_MS, hasherBusy, refusalHoldMs } = await import("~/auth/sign-in/hasher-queue.server");
    const { AuthError } = await import("~/auth/errors");
    expect(refusalHoldMs(hasherBusy(2_500))).toBe(BUSY_REFUSAL_HOLD_MS);
    expect(BUSY_REFUSAL_HOLD_MS).toBe(1_000);
    expect(refusalHoldMs(new AuthError("TOO_MANY_REQUESTS"))).toBe(0);
    expect(refusalHoldMs(new Error("not a refusal"))).toBe(0);
  });
});
