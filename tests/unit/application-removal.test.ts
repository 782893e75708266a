// Removing an OpenID application tells everyone who had allowed it, in the same transaction (ADR 051): from the
// console with the admin as the events' actor.
import { afterAll, beforeAll, expect, it } from "vitest";
import { openDomain, type DomainHandle } from "../support/domain";

let domain: DomainHandle;
beforeAll(async () => {
  domain = await openDomain("sqlite");
});
afterAll(async () => {
  await domain?.close();
});

it("an admin's removal records application_revoked for each person who allowed it, the admin as actor, and leaves no consent", async () => {
  const { db } = domain;
  const { removeApplication } = await import("~/auth/admin/applications.server");
  const admin = await db.user.create({ data: { name: "Admin", email: `admin-${Date.now()}@example.com`, role: "admin" } });
  const people = await Promise.all([1, 2].map((n) => db.user.create({ data: { name: `P${n}`, email: `p${n}-${Date.now()}@example.com` } })));
  const client = await db.oidcClient.create({ data: { id: `removed-${Date.now()}`, name: "Gone App", redirectUris: "[]" } });
  for (const person of people) await db.oidcConsent.create({ data: { userId: person.id, clientId: client.id, scopes: "openid", grantId: `grant-${person.id}` } });

  const adminSession = { user: admin, session: { createdAt: new Date(), verifiedAt: null } } as unknown as Parameters<typeof removeApplication>[1];
  const ctx = { clientIp: "203.0.113.9", userAgent: "vitest" } as Parameters<typeof removeApplication>[0];
  expect(await removeApplication(ctx, adminSession, client.id)).toBe(true);

  const events = await db.securityEvent.findMany({ where: { type: "application_revoked", userId: { in: people.map((p) => p.id) } } });
  expect(events).toHaveLength(2);
  for (const event of events) {
    expect(event.actorUserId).toBe(admin.id);
    expect(JSON.parse(event.details)).toEqual({ application: "Gone App", clientId: client.id, applicationRemoved: true });
  }
  expect(await db.oidcConsent.count({ where: { clientId: client.id } })).toBe(0);
  expect(await removeApplication(ctx, adminSession, client.id)).toBe(false);
});
