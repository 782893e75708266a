// Set-password is server-only (spec §6): a domain function the account page calls for users without a
// password, e.g. after a social sign-up. Tested directly against each database.
// Run once per database by set-password.sqlite.test.ts and set-password.postgres.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseKind } from "../support/database";
import { openDomain, type DomainHandle } from "../support/domain";

export function setPasswordSuite(kind: DatabaseKind) {
  let domain: DomainHandle;
  let flows: typeof import("~/auth/account/password-flows.server");
  let passwords: typeof import("~/auth/account/password.server");

  beforeAll(async () => {
    domain = await openDomain(kind);
    flows = await import("~/auth/account/password-flows.server");
    passwords = await import("~/auth/account/password.server");
  });
  afterAll(async () => {
    await domain?.close();
  });

  /** The request the change came through: only its address and User-Agent are read (for the security event). */
  const CTX = { clientIp: "203.0.113.9", userAgent: "vitest" } as Parameters<typeof flows.setPassword>[0];

  async function passwordlessUser() {
    const { db } = domain;
    const user = await db.user.create({ data: { name: "Social", email: `social-${Date.now()}-${Math.random()}@example.com` } });
    await db.account.create({ data: { userId: user.id, providerId: "github", accountId: `gh-${user.id}` } });
    const session = await db.session.create({ data: { userId: user.id, token: `t-${user.id}`, expiresAt: new Date(Date.now() + 60_000) } });
    return { user, session };
  }

  describe("setPassword", () => {
    it("gives a passwordless user a credential account, then refuses a second time", async () => {
      const current = await passwordlessUser();
      expect(await flows.hasPassword(current.user.id)).toBe(false);
      await flows.setPassword(CTX, current, "a long enough password");
      expect(await flows.hasPassword(current.user.id)).toBe(true);
      const account = await domain.db.account.findFirst({ where: { userId: current.user.id, providerId: "credential" } });
      expect(account?.accountId).toBe(current.user.id);
      expect(await passwords.verifyPassword("a long enough password", account!.password!)).toBe(true);

      await expect(flows.setPassword(CTX, current, "another long password")).rejects.toMatchObject({
        code: "USER_ALREADY_HAS_A_PASSWORD",
        message: "user already has a password",
        status: 400,
      });
    });

    it("needs a sign-in within the last ten minutes: an older session is refused with 403 and nothing is written (issue 24)", async () => {
      const current = await passwordlessUser();
      const old = { ...current, session: { ...current.session, createdAt: new Date(Date.now() - 11 * 60_000) } };
      await expect(flows.setPassword(CTX, old, "a long enough password")).rejects.toMatchObject({ code: "SESSION_IS_NOT_FRESH", status: 403 });
      expect(await flows.hasPassword(current.user.id)).toBe(false);
    });

    it("checks the configured length bounds before writing anything", async () => {
      const current = await passwordlessUser();
      await expect(flows.setPassword(CTX, current, "short")).rejects.toMatchObject({ code: "PASSWORD_TOO_SHORT" });
      expect(await flows.hasPassword(current.user.id)).toBe(false);
    });

    it("lets exactly one of two concurrent calls set the password", async () => {
      const current = await passwordlessUser();
      const results = await Promise.allSettled([flows.setPassword(CTX, current, "first long password"), flows.setPassword(CTX, current, "second long password")]);
      expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
      expect(await domain.db.account.count({ where: { userId: current.user.id, providerId: "credential" } })).toBe(1);
    });
  });
}
