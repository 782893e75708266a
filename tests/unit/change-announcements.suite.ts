// In-process tests of how a transaction's writes reach the change feed (app/change-feed/prisma-hooks.server.ts),
// run once per database: a write inside a transaction is announced when made and again once the transaction
// has ended, and work waiting for the commit runs after it, never after a rollback.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DatabaseKind } from "../support/database";
import { openDomain, type DomainHandle } from "../support/domain";

export function changeAnnouncementsSuite(kind: DatabaseKind) {
  let domain: DomainHandle;
  let hooks: typeof import("~/change-feed/prisma-hooks.server");
  let feed: typeof import("~/change-feed/feed.server");

  beforeAll(async () => {
    domain = await openDomain(kind);
    hooks = await import("~/change-feed/prisma-hooks.server");
    feed = await import("~/change-feed/feed.server");
  });
  afterAll(async () => {
    await domain?.close();
  });

  let n = 0;
  const user = () => domain.db.user.create({ data: { name: "Announced", email: `announced-${kind}-${++n}@example.com` } });
  /** The changes naming `userId` heard from now on. */
  function heardFor(userId: string) {
    const heard: string[] = [];
    feed.changeFeed.subscribe((change) => {
      if (change.kind === "user" && change.keys.includes(userId)) heard.push(change.kind);
    });
    return heard;
  }

  describe(`a transaction's writes (${kind})`, () => {
    it("are announced when made and again once the transaction has committed", async () => {
      const { id } = await user();
      const heard = heardFor(id);
      let insideAfterWrite = -1;
      await domain.db.$transaction(async (tx) => {
        await tx.user.update({ where: { id }, data: { name: "Renamed" } });
        insideAfterWrite = heard.length;
      });
      expect(insideAfterWrite).toBe(1); // the hook, before the commit
      expect(heard.length).toBe(2); // the transaction's scope, after it, before $transaction resolved
    });

    it("are announced again after a rollback too: the rows then read as they will stay", async () => {
      const { id } = await user();
      const heard = heardFor(id);
      let insideAfterWrite = -1;
      await domain.db
        .$transaction(async (tx) => {
          await tx.user.update({ where: { id }, data: { name: "Rolled back" } });
          insideAfterWrite = heard.length;
          throw new Error("roll back");
        })
        .catch(() => undefined);
      expect(insideAfterWrite).toBe(1);
      expect(heard.length).toBe(2);
      expect((await domain.db.user.findUniqueOrThrow({ where: { id } })).name).toBe("Announced");
    });

    it("are refused in the list form, whose writes could not be announced after the commit", async () => {
      const { id } = await user();
      const list = domain.db.$transaction as unknown as (queries: unknown[]) => Promise<unknown>;
      await expect(list([domain.db.user.update({ where: { id }, data: { name: "Listed" } })])).rejects.toThrow(/interactive form/);
      expect((await domain.db.user.findUniqueOrThrow({ where: { id } })).name).toBe("Announced");
    });

    it("run what waits for the commit after it, and drop it when the transaction rolls back", async () => {
      const { id } = await user();
      const ran: string[] = [];
      await domain.db.$transaction(async (tx) => {
        await tx.user.update({ where: { id }, data: { name: "Committed" } });
        hooks.afterCommit(tx, () => ran.push("committed"));
        expect(ran).toEqual([]);
      });
      expect(ran).toEqual(["committed"]);
      await domain.db
        .$transaction(async (tx) => {
          hooks.afterCommit(tx, () => ran.push("rolled back"));
          throw new Error("roll back");
        })
        .catch(() => undefined);
      expect(ran).toEqual(["committed"]);
      // Outside a transaction a single statement commits by itself: the work runs at once.
      hooks.afterCommit(domain.db, () => ran.push("at once"));
      expect(ran).toEqual(["committed", "at once"]);
    });

    it("keep the transaction client working as Prisma's: reads, raw SQL and other models pass through", async () => {
      const { id } = await user();
      const found = await domain.db.$transaction(async (tx) => {
        await tx.account.create({ data: { userId: id, accountId: id, providerId: "credential", password: "x" } });
        const rows = await tx.$queryRawUnsafe<Array<{ n: number | bigint }>>(`SELECT COUNT(*) AS n FROM "account" WHERE "userId" = '${id}'`);
        return { account: await tx.account.findFirst({ where: { userId: id } }), count: Number(rows[0].n), user: await tx.user.findUnique({ where: { id } }) };
      });
      expect(found).toMatchObject({ account: { userId: id }, count: 1, user: { id } });
    });
  });
}
