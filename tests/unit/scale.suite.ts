// In-process tests of what keeps cost flat as the data grows (issue 28, ADR 044/045), run once per database by
// scale.sqlite.test.ts and scale.postgres.test.ts: owner counts done by the database with roles matched as
// comma-separated names, the delete-user check in one query, and expired sessions deleted in bounded batches
// that announce only what they deleted.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseKind } from "../support/database";
import { openDomain, type DomainHandle } from "../support/domain";

export function scaleSuite(kind: DatabaseKind) {
  let domain: DomainHandle;
  let access: typeof import("~/auth/organization/access.server");
  let housekeeping: typeof import("~/auth/housekeeping.server");
  let feed: typeof import("~/change-feed/feed.server");

  beforeAll(async () => {
    domain = await openDomain(kind);
    access = await import("~/auth/organization/access.server");
    housekeeping = await import("~/auth/housekeeping.server");
    feed = await import("~/change-feed/feed.server");
  });
  afterAll(async () => {
    await domain?.close();
  });

  let n = 0;
  const user = (label: string) => domain.db.user.create({ data: { name: label, email: `${label}-${kind}-${++n}@example.com` } });
  const organization = (name: string) => domain.db.organization.create({ data: { name, slug: `${name.toLowerCase()}-${kind}-${++n}` } });
  const join = (organizationId: string, userId: string, role: string) => domain.db.member.create({ data: { organizationId, userId, role } });

  describe(`owner counts (${kind})`, () => {
    it("count owners by the role's comma-separated names: not co-owner, owners or OWNERship", async () => {
      const org = await organization("Roles");
      const roles = ["owner", "co-owner", "owners", "co-owner,admin", "admin,owner", "owner,admin", "member,owner,admin", "admin", "member"];
      const members = [];
      for (const role of roles) members.push(await join(org.id, (await user(role.replace(/,/g, "-"))).id, role));
      // Besides the first owner: "admin,owner", "owner,admin", "member,owner,admin".
      expect(await access.countOtherOwners(domain.db, org.id, members[0].id)).toBe(3);
      // Besides someone who is no owner, the first owner counts too.
      expect(await access.countOtherOwners(domain.db, org.id, members[1].id)).toBe(4);
    });

    it("a lone owner beside a co-owner is still the only owner: removing or demoting them is refused", async () => {
      const org = await organization("Lonely");
      const owner = await join(org.id, (await user("lone-owner")).id, "owner");
      await join(org.id, (await user("co-owner")).id, "co-owner");
      expect(await access.countOtherOwners(domain.db, org.id, owner.id)).toBe(0);
    });

    it("the delete-user check names organizations whose only owner the user is, and returns those they are alone in", async () => {
      const leaving = await user("leaving");
      const blocked = await organization("Blocked");
      await join(blocked.id, leaving.id, "owner");
      await join(blocked.id, (await user("co")).id, "co-owner,admin");
      const shared = await organization("Shared");
      await join(shared.id, leaving.id, "admin,owner");
      await join(shared.id, (await user("other-owner")).id, "member,owner");
      const alone = await organization("Alone");
      await join(alone.id, leaving.id, "owner");
      const asMember = await organization("AsMember");
      await join(asMember.id, leaving.id, "member");
      await join(asMember.id, (await user("someone")).id, "admin");

      await expect(access.assertNoOrganizationLeftWithoutOwner(domain.db, leaving.id)).rejects.toMatchObject({
        code: "YOU_ARE_THE_ONLY_OWNER_OF_AN_ORGANIZATION_WITH_OTHER_MEMBERS",
        message: expect.stringContaining('"Blocked"'),
      });
      await domain.db.member.updateMany({ where: { organizationId: blocked.id, userId: { not: leaving.id } }, data: { role: "admin,owner" } });
      expect(await access.assertNoOrganizationLeftWithoutOwner(domain.db, leaving.id)).toEqual([alone.id]);
    });
  });

  describe(`expired sessions (${kind})`, () => {
    const seed = async (count: number, expiresAt: Date) => {
      const owner = await user("sessions");
      await domain.db.session.createMany({
        data: Array.from({ length: count }, (_, i) => ({ userId: owner.id, token: `t-${kind}-${++n}-${i}-${Math.random()}`, expiresAt })),
      });
      return owner;
    };

    it("go in batches of at most 100, each announced by its ids: never 'everything changed'", async () => {
      await domain.db.session.deleteMany({});
      const live = await seed(3, new Date(Date.now() + 3_600_000));
      await seed(250, new Date(Date.now() - 60_000));
      const heard: import("~/change-feed/feed.server").Change[] = [];
      feed.changeFeed.subscribe((change) => heard.push(change));
      // PostgreSQL's statement trigger announces too: listen to what it says.
      const notified: string[] = [];
      let listener: pg.Client | undefined;
      if (kind === "postgres") {
        listener = new pg.Client({ connectionString: domain.database.url });
        await listener.connect();
        listener.on("notification", (message) => notified.push(message.payload ?? ""));
        await listener.query("LISTEN latchkey_session_invalidation");
      }
      try {
        expect(await housekeeping.deleteExpiredSessions()).toBe(250);
        expect(await domain.db.session.count()).toBe(3);
        expect(await domain.db.session.count({ where: { userId: live.id } })).toBe(3);
        const sessionChanges = heard.filter((c) => c.kind !== "user" && c.kind !== "organization");
        expect(sessionChanges.length).toBe(3);
        for (const change of sessionChanges) {
          expect(change.kind).toBe("session");
          expect((change as { keys: string[] }).keys.length).toBeLessThanOrEqual(housekeeping.SESSION_BATCH);
        }
        if (listener) {
          // Three statements: the trigger names each one's ids (and the app's own announcements, when its
          // transport is PostgreSQL, do the same); none says "all".
          await listener.query("SELECT 1");
          for (let i = 0; i < 50 && notified.length < 3; i++) await new Promise((resolve) => setTimeout(resolve, 100));
          expect(notified.length).toBeGreaterThanOrEqual(3);
          for (const text of notified) expect(JSON.parse(text)).toMatchObject({ kind: "session", keys: expect.any(Array) });
        }
      } finally {
        await listener?.end();
      }
    });

    it("a run stops after its number of batches; the next run goes on", async () => {
      await domain.db.session.deleteMany({});
      await seed(250, new Date(Date.now() - 60_000));
      expect(await housekeeping.deleteExpiredSessions({ batch: 100, maxBatches: 2 })).toBe(200);
      expect(await domain.db.session.count()).toBe(50);
      expect(await housekeeping.deleteExpiredSessions({ batch: 100, maxBatches: 2 })).toBe(50);
      expect(await domain.db.session.count()).toBe(0);
    });
  });
}
