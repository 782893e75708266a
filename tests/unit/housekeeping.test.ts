import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDomain, type DomainHandle } from "../support/domain";

let domain: DomainHandle;
let housekeeping: typeof import("~/auth/housekeeping.server");

beforeAll(async () => {
  domain = await openDomain("sqlite");
  housekeeping = await import("~/auth/housekeeping.server");
});
afterAll(async () => {
  await domain?.close();
});

describe("housekeeping", () => {
  it("deletes expired sessions, tokens and stale rate-limit rows and keeps live ones", async () => {
    const { db } = domain;
    const past = new Date(Date.now() - 60_000);
    const future = new Date(Date.now() + 60_000);
    const user = await db.user.create({ data: { name: "H", email: "housekeeping@example.com" } });
    await db.session.createMany({
      data: [
        { userId: user.id, token: "expired-session-token", expiresAt: past },
        { userId: user.id, token: "live-session-token", expiresAt: future },
      ],
    });
    await db.verification.createMany({
      data: [
        { identifier: "reset-password:old", value: "{}", expiresAt: past },
        { identifier: "reset-password:new", value: "{}", expiresAt: future },
      ],
    });
    await db.rateLimit.createMany({
      data: [
        { key: "stale", count: 1, lastRequest: BigInt(Date.now() - 2 * 24 * 60 * 60 * 1000) },
        { key: "fresh", count: 1, lastRequest: BigInt(Date.now()) },
      ],
    });

    await housekeeping.deleteExpiredRows();

    expect((await db.session.findMany()).map((s) => s.token)).toEqual(["live-session-token"]);
    expect((await db.verification.findMany()).map((v) => v.identifier)).toEqual(["reset-password:new"]);
    expect((await db.rateLimit.findMany()).map((r) => r.key)).toEqual(["fresh"]);
  });
});
