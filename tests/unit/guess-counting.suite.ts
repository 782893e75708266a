// In-process tests of guess counting (docs/decisions/029-atomic-guess-counting.md), run once per database by
// guess-counting.sqlite.test.ts and guess-counting.postgres.test.ts: the rules need no HTTP, only concurrency.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseKind } from "../support/database";
import { openDomain, type DomainHandle } from "../support/domain";

export function guessCountingSuite(kind: DatabaseKind) {
  let domain: DomainHandle;
  let verification: typeof import("~/auth/verification.server");
  let budget: typeof import("~/auth/rate-limit/guess-budget.server");

  beforeAll(async () => {
    domain = await openDomain(kind);
    verification = await import("~/auth/verification.server");
    budget = await import("~/auth/rate-limit/guess-budget.server");
  });
  afterAll(async () => {
    await domain?.close();
  });

  const at = <T>(count: number, each: (i: number) => Promise<T>) => Promise.all(Array.from({ length: count }, (_, i) => each(i)));
  let n = 0;
  const key = () => `key-${kind}-${++n}-${Math.random()}`;

  describe(`guess reservations (${kind})`, () => {
    it("of 40 concurrent reservations against a cap of 3, exactly 3 succeed, numbered 1 to 3", async () => {
      const k = key();
      await verification.openEntry("email-otp-sign-in", k, { email: k }, { ttlSeconds: 60, code: "123456" });
      const results = await at(40, () => verification.reserveGuess("email-otp-sign-in", k, 3));
      const numbers = results.flatMap((r) => (r.ok ? [r.guess.number] : [])).sort();
      expect(numbers).toEqual([1, 2, 3]);
      expect(results.filter((r) => !r.ok && r.reason === "spent")).toHaveLength(37);
    });

    it("of 40 concurrent checks of one code (the right one among them), at most 3 are compared", async () => {
      const k = key();
      await verification.openEntry("email-otp-sign-in", k, { email: k }, { ttlSeconds: 60, code: "123456" });
      const results = await at(40, (i) => verification.checkCode("email-otp-sign-in", k, i === 20 ? "123456" : "000000", { maxFailures: 3 }));
      // Compared: accepted, wrong ("invalid"), or wrong and the last allowed ("exhausted"). The rest were refused uncompared.
      const compared = results.filter((r) => r.ok || r.reason === "invalid" || r.reason === "exhausted");
      expect(compared.length).toBeLessThanOrEqual(3);
      expect(results.filter((r) => r.ok).length).toBeLessThanOrEqual(1);
      // However they interleaved, the code is over now.
      expect(await verification.checkCode("email-otp-sign-in", k, "123456", { maxFailures: 3 })).toEqual({ ok: false, reason: "missing" });
    });

    it("a right code among concurrent right ones is used up exactly once", async () => {
      const k = key();
      await verification.openEntry("two-factor-otp", k, { userId: "u" }, { ttlSeconds: 60, code: "424242" });
      const results = await at(10, () => verification.checkCode("two-factor-otp", k, "424242", { maxFailures: 5 }));
      expect(results.filter((r) => r.ok)).toHaveLength(1);
    });

    it("'keep' checks give a right guess back; wrong ones stay counted, and the third ends the code", async () => {
      const k = key();
      await verification.openEntry("email-otp-sign-in", k, { email: k }, { ttlSeconds: 60, code: "123456" });
      for (let i = 0; i < 5; i++) expect((await verification.checkCode("email-otp-sign-in", k, "123456", { maxFailures: 3, keep: true })).ok).toBe(true);
      expect(await verification.checkCode("email-otp-sign-in", k, "000000", { maxFailures: 3 })).toEqual({ ok: false, reason: "invalid" });
      expect(await verification.checkCode("email-otp-sign-in", k, "000000", { maxFailures: 3 })).toEqual({ ok: false, reason: "invalid" });
      expect(await verification.checkCode("email-otp-sign-in", k, "000000", { maxFailures: 3 })).toEqual({ ok: false, reason: "exhausted" });
      expect(await verification.checkCode("email-otp-sign-in", k, "123456", { maxFailures: 3 })).toEqual({ ok: false, reason: "missing" });
    });

    it("a new code starts with no guesses counted, and a guess reserved against the old one cannot end or use up the new one", async () => {
      const k = key();
      await verification.openEntry("email-otp-sign-in", k, { email: k }, { ttlSeconds: 60, code: "111111" });
      const reservations = await at(3, () => verification.reserveGuess("email-otp-sign-in", k, 3));
      await verification.openEntry("email-otp-sign-in", k, { email: k }, { ttlSeconds: 60, code: "222222" });
      for (const r of reservations) if (r.ok) await verification.settleWrongGuess(r.guess);
      expect((await verification.readEntry("email-otp-sign-in", k))?.attempts).toBe(0);
      expect((await verification.checkCode("email-otp-sign-in", k, "222222", { maxFailures: 3 })).ok).toBe(true);
    });

    it("an expired entry refuses every guess as expired, comparing none", async () => {
      const k = key();
      await verification.openEntry("email-otp-sign-in", k, { email: k }, { ttlSeconds: 60, code: "123456" });
      await domain.db.verification.updateMany({ where: { identifier: { startsWith: "email-otp-sign-in:" } }, data: { expiresAt: new Date(Date.now() - 1000) } });
      expect(await verification.checkCode("email-otp-sign-in", k, "123456", { maxFailures: 3 })).toEqual({ ok: false, reason: "expired" });
    });
  });

  describe(`the per-account budget (${kind})`, () => {
    const { max } = { max: 10 };

    it(`of 40 concurrent guesses for one account, exactly ${max} are allowed; the rest are 429 with Retry-After`, async () => {
      expect(budget.WRONG_CODE_GUESSES_PER_ACCOUNT.max).toBe(max);
      const account = { userId: key() };
      const results = await at(40, () => budget.takeAccountGuess(account).then(() => null, (error) => error));
      expect(results.filter((r) => r === null)).toHaveLength(max);
      const refusals = results.filter((r) => r !== null);
      expect(refusals).toHaveLength(40 - max);
      expect(refusals[0]).toMatchObject({ status: 429, code: "TOO_MANY_REQUESTS" });
      expect(Number(refusals[0].headers["Retry-After"])).toBeGreaterThan(3500);
    });

    it("a right guess gives its place back; addresses and users are counted apart; the budget renews when its window ends", async () => {
      const userId = key();
      const taken = await at(max, () => budget.takeAccountGuess({ userId }));
      await expect(budget.takeAccountGuess({ userId })).rejects.toMatchObject({ status: 429 });
      await budget.giveBackAccountGuess(taken[0]);
      await budget.takeAccountGuess({ userId });
      await expect(budget.takeAccountGuess({ userId })).rejects.toMatchObject({ status: 429 });
      // The same string as an address is another account.
      await budget.takeAccountGuess({ email: userId });
      // The window ended: a new one starts, and an old guess given back does not count against it.
      await domain.db.rateLimit.updateMany({ where: { key: taken[0].key }, data: { lastRequest: BigInt(Date.now() - 3_600_001) } });
      await budget.takeAccountGuess({ userId });
      await budget.giveBackAccountGuess(taken[1]);
      expect((await domain.db.rateLimit.findUnique({ where: { key: taken[0].key } }))?.count).toBe(1);
    });

    it("a mail quota, once spent, is refused from memory until its window ends, with no write to the store", async () => {
      const { takeFromQuota } = await import("~/auth/rate-limit/limits.server");
      const k = key();
      const rule = { windowSeconds: 3600, max: 1 };
      expect((await takeFromQuota(k, rule)).allowed).toBe(true);
      const written = await domain.db.rateLimit.findUnique({ where: { key: k } });
      const refused = await takeFromQuota(k, rule);
      expect(refused.allowed).toBe(false);
      expect(refused.retryAfterSeconds).toBeGreaterThan(3500);
      expect(await domain.db.rateLimit.findUnique({ where: { key: k } })).toEqual(written);
      // A larger quota counts in the store until it is refused there.
      const wide = key();
      for (let i = 0; i < 2; i++) expect((await takeFromQuota(wide, { windowSeconds: 3600, max: 2 })).allowed).toBe(true);
      expect((await takeFromQuota(wide, { windowSeconds: 3600, max: 2 })).allowed).toBe(false);
      expect((await domain.db.rateLimit.findUnique({ where: { key: wide } }))?.count).toBe(3);
    });

    it("stores no address in clear", async () => {
      await budget.takeAccountGuess({ email: "someone-private@example.com" });
      const keys = (await domain.db.rateLimit.findMany()).map((row) => row.key);
      expect(keys.some((k) => k.includes("someone-private"))).toBe(false);
    });
  });
}
