// Organization helpers shared by the teams and custom-roles API tests (issue 42): people, an organization with an
// owner, an admin, a plain member and someone outside it, members added straight into the database (invitations
// are tested on their own).
import { expect } from "vitest";
import { ApiClient, signUp, uniqueEmail } from "./client";
import type { TestServer } from "./server";
import { query } from "./sql";

export const ORG = "/api/auth/organization";

export interface Person {
  client: ApiClient;
  id: string;
  email: string;
}

export async function person(target: TestServer, prefix = "org"): Promise<Person> {
  const client = new ApiClient(target.baseUrl);
  const created = await signUp(client, { email: uniqueEmail(prefix) });
  return { client, id: created.user.id, email: created.email };
}

let slugCounter = 0;
export const uniqueSlug = (prefix = "org") => `${prefix}-${Date.now().toString(36)}-${++slugCounter}-${Math.random().toString(36).slice(2, 6)}`;

export async function createOrg(owner: Person, prefix = "org") {
  const slug = uniqueSlug(prefix);
  const response = await owner.client.post(`${ORG}/create`, { name: `Org ${slug}`, slug });
  expect(response.status, response.text).toBe(200);
  return response.body as { id: string; name: string; slug: string; members: Array<{ id: string }> };
}

/** Makes `who` a member with `role`; the member row's id. */
export async function addMember(target: TestServer, organizationId: string, who: Person, role: string): Promise<string> {
  const id = `m-${Math.random().toString(36).slice(2)}`;
  await query(target.database, `INSERT INTO "member" ("id", "organizationId", "userId", "role", "createdAt") VALUES (?, ?, ?, ?, ?)`, [
    id,
    organizationId,
    who.id,
    role,
    target.database.kind === "sqlite" ? Date.now() : new Date(),
  ]);
  return id;
}

/** An organization with an owner (signed in, the organization active), an admin, a member and an outsider. */
export async function organizationWithPeople(target: TestServer, prefix = "org") {
  const [owner, admin, member, outsider] = await Promise.all([0, 1, 2, 3].map(() => person(target, prefix)));
  const org = await createOrg(owner, prefix);
  const adminId = await addMember(target, org.id, admin, "admin");
  const memberId = await addMember(target, org.id, member, "member");
  return { owner, admin, member, outsider, org, ownerMemberId: org.members[0].id, adminId, memberId };
}
