// The hand-written session read must return exactly what Prisma returns, on SQLite and PostgreSQL alike; this
// also fails when a column is added to session or user but not to the query.
// Run once per database by session-store.sqlite.test.ts and session-store.postgres.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseKind } from "../support/database";
import { openDomain, type DomainHandle } from "../support/domain";

export function sessionStoreSuite(kind: DatabaseKind) {
  let domain: DomainHandle;
  let store: typeof import("~/auth/session/store.server");

  beforeAll(async () => {
    domain = await openDomain(kind);
    store = await import("~/auth/session/store.server");
  });
  afterAll(async () => {
    await domain?.close();
  });

  describe("findSessionWithUser", () => {
    it("equals Prisma's findUnique with include, field for field and type for type", async () => {
      const { db } = domain;
      const user = await db.user.create({
        data: { name: "Store", email: `store-${Date.now()}@example.com`, emailVerified: true, image: "https://img.example/a.png", username: "store", displayUsername: "Store", twoFactorEnabled: true },
      });
      const organization = await db.organization.create({ data: { name: "Org", slug: `org-${Date.now()}` } });
      await db.session.create({
        data: { userId: user.id, token: "store-token-with-everything", expiresAt: new Date(Date.now() + 60_000), ipAddress: "203.0.113.9", userAgent: "UA", activeOrganizationId: organization.id },
      });
      await db.session.create({ data: { userId: user.id, token: "store-token-bare", expiresAt: new Date(Date.now() + 60_000) } });

      for (const token of ["store-token-with-everything", "store-token-bare"]) {
        const viaPrisma = await db.session.findUnique({ where: { token }, include: { user: true } });
        const { user: prismaUser, ...prismaSession } = viaPrisma!;
        const viaStore = await store.findSessionWithUser(token);
        expect(viaStore).toEqual({ session: prismaSession, user: prismaUser });
        expect(Object.keys(viaStore!.session).sort()).toEqual(Object.keys(prismaSession).sort());
        expect(Object.keys(viaStore!.user).sort()).toEqual(Object.keys(prismaUser).sort());
        expect(viaStore!.session.expiresAt).toBeInstanceOf(Date);
      }
    });

    it("answers null for an unknown token", async () => {
      expect(await store.findSessionWithUser("no-such-token")).toBeNull();
    });
  });

  describe("findUserWithPasswordHash", () => {
    it("equals Prisma's user and the credential account's hash, and null for a stranger", async () => {
      const { db } = domain;
      const email = `hash-${Date.now()}@example.com`;
      const user = await db.user.create({ data: { name: "Hash", email, twoFactorEnabled: true } });
      await db.account.create({ data: { userId: user.id, accountId: "gh-1", providerId: "github" } });
      await db.account.create({ data: { userId: user.id, accountId: user.id, providerId: "credential", password: "salt:key" } });
      expect(await store.findUserWithPasswordHash(email, "credential")).toEqual({ user, passwordHash: "salt:key", knownDevice: false });
      // With the browser's device hash: whether it is one of the account's known devices (ADR 057).
      await db.knownDevice.create({ data: { userId: user.id, deviceHash: "known-device-hash" } });
      expect((await store.findUserWithPasswordHash(email, "credential", "known-device-hash"))?.knownDevice).toBe(true);
      expect((await store.findUserWithPasswordHash(email, "credential", "other-device-hash"))?.knownDevice).toBe(false);

      const social = await db.user.create({ data: { name: "Social", email: `social-${Date.now()}@example.com` } });
      await db.account.create({ data: { userId: social.id, accountId: "gh-2", providerId: "github" } });
      expect(await store.findUserWithPasswordHash(social.email, "credential")).toEqual({ user: social, passwordHash: null, knownDevice: false });

      expect(await store.findUserWithPasswordHash("nobody@example.com", "credential")).toBeNull();
    });
  });

  describe("insertSession", () => {
    it("returns exactly the row Prisma reads back", async () => {
      const { db } = domain;
      const user = await db.user.create({ data: { name: "Insert", email: `insert-${Date.now()}@example.com` } });
      for (const data of [
        { userId: user.id, token: `insert-a-${Date.now()}`, expiresAt: new Date(Date.now() + 60_000), rememberMe: true, ipAddress: "203.0.113.4", userAgent: "UA" },
        { userId: user.id, token: `insert-b-${Date.now()}`, expiresAt: new Date(Date.now() + 60_000), rememberMe: false, ipAddress: null, userAgent: null },
      ]) {
        const inserted = await store.insertSession(data);
        expect(await db.session.findUnique({ where: { id: inserted.id } })).toEqual(inserted);
      }
    });
  });
}
