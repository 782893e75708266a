// Proof of work's rules in process (issue 39 §5, docs/decisions/060-proof-of-work-under-a-burst.md): what counts
// as a burst and for how long, what a solution must be (ours, solved, unexpired, unused), and that nothing at all
// is read while AUTH_POW is off. The shared store is replaced by a map here; tests/api/proof-of-work.test.ts runs
// the same rules over HTTP on both databases.
import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { foreignChallenge, solvePow } from "../support/proof-of-work";

const store = vi.hoisted(() => {
  process.env.AUTH_POW = "on";
  process.env.AUTH_POW_COST = "1";
  return { windows: new Map<string, { count: number; startedAt: number }>(), used: new Set<string>(), reads: 0, surge: false, dbTouched: 0 };
});

vi.mock("~/auth/proof-of-work/evidence.server", () => ({
  powKey: (kind: string, value: string) => `pow:${kind}:${createHash("sha256").update(value).digest("hex")}`,
  readEvidence: async (keys: string[]) => {
    store.reads++;
    return new Map(keys.flatMap((key) => (store.windows.has(key) ? [[key, store.windows.get(key)!] as const] : [])));
  },
  addEvidence: async () => {},
  markChallengeUsed: async (signature: string) => {
    if (store.used.has(signature)) return false;
    store.used.add(signature);
    return true;
  },
}));
vi.mock("~/auth/sign-in/hasher-queue.server", () => ({ newDeviceSurge: () => store.surge }));
vi.mock("~/db.server", async (importOriginal) => ({
  ...(await importOriginal<object>()),
  db: new Proxy(
    {},
    {
      get() {
        store.dbTouched++;
        throw new Error("no database in this test");
      },
    },
  ),
}));

const { burstFor, ACCOUNT_BURST_FAILURES, ADDRESS_BURST_FAILURES, ADDRESS_BURST_WINDOW_MS } = await import("~/auth/proof-of-work/burst.server");
const { createProofChallenge, spendProof, CHALLENGE_TTL_SECONDS, COUNTER_RANGE } = await import("~/auth/proof-of-work/challenge.server");
const { parseProofPayload } = await import("~/auth/proof-of-work/schemas");
const { MemoryCounters } = await import("~/auth/rate-limit/stores.server");
const { memoryEvidence } = await import("~/auth/rate-limit/evidence-counters.server");

const key = (kind: string, value: string) => `pow:${kind}:${createHash("sha256").update(value).digest("hex")}`;
let ip = 0;
const nextIp = () => `192.0.2.${++ip}`;

beforeEach(() => {
  store.windows.clear();
  store.reads = 0;
  store.surge = false;
});
afterEach(() => vi.useRealTimers());

describe("a burst", () => {
  it("is an account's new devices with 5 wrong passwords in the lockout's window, not 4", async () => {
    const now = Date.now();
    store.windows.set(key("account", "user:u4"), { count: ACCOUNT_BURST_FAILURES - 1, startedAt: now });
    store.windows.set(key("account", "user:u5"), { count: ACCOUNT_BURST_FAILURES, startedAt: now });
    expect(await burstFor(nextIp(), { userId: "u4" })).toBeNull();
    const burst = await burstFor(nextIp(), { userId: "u5" });
    expect(burst?.untilMs).toBe(now + 3600 * 1000);
  });

  it("counts an unknown identifier as it counts an account", async () => {
    store.windows.set(key("account", "id:email:nobody@example.com"), { count: 5, startedAt: Date.now() });
    expect(await burstFor(nextIp(), { identifier: "email:nobody@example.com" })).not.toBeNull();
  });

  it("is an address with 10 pieces of evidence in 10 minutes (a 429 counts 10), for every account and before one is typed", async () => {
    const [quiet, busy] = [nextIp(), nextIp()];
    store.windows.set(key("address", quiet), { count: ADDRESS_BURST_FAILURES - 1, startedAt: Date.now() });
    store.windows.set(key("address", busy), { count: ADDRESS_BURST_FAILURES, startedAt: Date.now() });
    expect(await burstFor(quiet, null)).toBeNull();
    expect(await burstFor(busy, null)).not.toBeNull();
    expect(await burstFor(busy, { identifier: "username:anyone" })).not.toBeNull();
  });

  it("ends with its window", async () => {
    const address = nextIp();
    store.windows.set(key("address", address), { count: 50, startedAt: Date.now() - ADDRESS_BURST_WINDOW_MS - 1 });
    expect(await burstFor(address, null)).toBeNull();
  });

  it("counts an IPv6 client per /64, as the rate limits do", async () => {
    store.windows.set(key("address", "2001:db8:1:2::/64"), { count: 10, startedAt: Date.now() });
    expect(await burstFor("2001:db8:1:2:aaaa::1", null)).not.toBeNull();
  });

  it("is any request during a global surge, whose end nobody knows", async () => {
    store.surge = true;
    expect(await burstFor(nextIp(), { userId: "quiet" })).toEqual({ untilMs: null });
    expect(store.reads).toBe(0);
  });

  it("once seen, is answered from memory until its end (no read per request under a flood)", async () => {
    const address = nextIp();
    store.windows.set(key("address", address), { count: 10, startedAt: Date.now() });
    await burstFor(address, null);
    const reads = store.reads;
    for (let i = 0; i < 5; i++) expect(await burstFor(address, { userId: `u${i}` })).not.toBeNull();
    expect(store.reads).toBe(reads);
  });
});

describe("evidence counted in a lone instance's memory", () => {
  const MINUTE = 60_000;

  it("holds a window from its first piece, and once at the threshold, a whole window past the latest", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const evidence = memoryEvidence(new MemoryCounters());
    const start = Date.now();
    for (let i = 0; i < 9; i++) await evidence.add("pow:address:a", 1, 10 * MINUTE, 10);
    vi.setSystemTime(start + 9 * MINUTE);
    expect((await evidence.read(["pow:address:a"])).get("pow:address:a")).toEqual({ count: 9, startedAt: start });
    await evidence.add("pow:address:a", 1, 10 * MINUTE, 10); // the 10th: the burst starts, and runs from now
    vi.setSystemTime(start + 18 * MINUTE);
    expect((await evidence.read(["pow:address:a"])).get("pow:address:a")?.count).toBe(10);
    vi.setSystemTime(start + 19 * MINUTE + 1);
    expect((await evidence.read(["pow:address:a"])).size).toBe(0);
  });

  it("keeps a fixed window without a threshold (an account's count, as the lockout's)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const evidence = memoryEvidence(new MemoryCounters());
    const start = Date.now();
    for (let i = 0; i < 7; i++) await evidence.add("pow:account:x", 1, 60 * MINUTE);
    vi.setSystemTime(start + 60 * MINUTE + 1);
    expect((await evidence.read(["pow:account:x"])).size).toBe(0);
  });

  it("marks a key once per window", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const evidence = memoryEvidence(new MemoryCounters());
    expect(await evidence.markOnce("pow:used:s", 10 * MINUTE)).toBe(true);
    expect(await evidence.markOnce("pow:used:s", 10 * MINUTE)).toBe(false);
    vi.setSystemTime(Date.now() + 10 * MINUTE + 1);
    expect(await evidence.markOnce("pow:used:s", 10 * MINUTE)).toBe(true);
  });
});

describe("a solution", () => {
  it("of our challenge works once; the same payload again is refused", async () => {
    const payload = await solvePow(await createProofChallenge());
    expect(await spendProof(payload)).toBe("verified");
    expect(await spendProof(payload)).toBe("reused");
  });

  it("expires with its challenge, five minutes after it was made", async () => {
    const payload = await solvePow(await createProofChallenge());
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + CHALLENGE_TTL_SECONDS * 1000 + 1000);
    expect(await spendProof(payload)).toBe("expired");
  });

  it("of a challenge signed elsewhere, garbled, or with a wrong key, is refused and writes nothing", async () => {
    const used = store.used.size;
    expect(await spendProof(await solvePow(await foreignChallenge()))).toBe("invalid");
    expect(await spendProof("not a payload")).toBe("invalid");
    expect(await spendProof(Buffer.from("{}").toString("base64"))).toBe("invalid");
    expect(await spendProof("A".repeat(10_000))).toBe("invalid");
    const solved = JSON.parse(Buffer.from(await solvePow(await createProofChallenge()), "base64").toString());
    solved.solution.derivedKey = "ab".repeat(32);
    expect(await spendProof(Buffer.from(JSON.stringify(solved)).toString("base64"))).toBe("invalid");
    expect(store.used.size).toBe(used);
  });

  it("challenges are PBKDF2/SHA-256 at AUTH_POW_COST, with a counter in range kept secret behind a signed key", async () => {
    const challenge = await createProofChallenge();
    expect(challenge.parameters).toMatchObject({ algorithm: "PBKDF2/SHA-256", cost: 1 });
    expect(challenge.parameters.keySignature).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(challenge)).not.toMatch(/counter/);
    expect(challenge.parameters.expiresAt! - Date.now() / 1000).toBeGreaterThan(CHALLENGE_TTL_SECONDS - 5);
    const payload = parseProofPayload(await solvePow(challenge));
    expect(payload!.solution.counter).toBeGreaterThanOrEqual(COUNTER_RANGE.min);
    expect(payload!.solution.counter).toBeLessThanOrEqual(COUNTER_RANGE.max);
  });
});

describe("AUTH_POW=off", () => {
  it("asks nothing and reads nothing", async () => {
    vi.resetModules();
    process.env.AUTH_POW = "off";
    try {
      const gate = await import("~/auth/proof-of-work/gate.server");
      const burst = await import("~/auth/proof-of-work/burst.server");
      store.surge = true;
      const touched = store.dbTouched;
      const ctx = { request: new Request("http://localhost/"), clientIp: nextIp(), userAgent: null, responseHeaders: new Headers() };
      await gate.requireProofUnderBurst(ctx, { email: "someone@example.com" }, "sign_up");
      await gate.requireProofUnderBurst(ctx, { userId: "u1" }, "password");
      expect(await gate.addressBurst(ctx.clientIp)).toBeNull();
      burst.noteWrongPassword(ctx.clientIp, { userId: "u1" }, false);
      burst.noteRateLimitRefusal(ctx.clientIp, "/sign-in/email");
      expect(store.reads).toBe(0);
      expect(store.dbTouched).toBe(touched);
    } finally {
      process.env.AUTH_POW = "on";
    }
  });
});
