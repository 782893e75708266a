// Helpers of the custom-roles API tests (issue 42, ADR 069): people, an organization with an owner, an admin, a plain
// member and an outsider, and roles made through the API.
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

export async function person(target: TestServer): Promise<Person> {
  const client = new ApiClient(target.baseUrl);
  const created = await signUp(client, { email: uniqueEmail("roles") });
  return { client, id: created.user.id, email: created.email };
}

let slugCounter = 0;
export const uniqueSlug = () => `roles-${Date.now().toString(36)}-${++slugCounter}`;

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

/** An organization with an owner, an admin, a plain member and someone outside it. */
export async function organization(target: TestServer) {
  const [owner, admin, member, outsider] = await Promise.all([person(target), person(target), person(target), person(target)]);
  const slug = uniqueSlug();
  const created = await owner.client.post(`${ORG}/create`, { name: `Org ${slug}`, slug });
  expect(created.status, created.text).toBe(200);
  const org = created.body as { id: string; name: string; members: Array<{ id: string }> };
  const adminId = await addMember(target, org.id, admin, "admin");
  const memberId = await addMember(target, org.id, member, "member");
  return { owner, admin, member, outsider, org, ownerMemberId: org.members[0].id, adminId, memberId };
}

export const createRole = (p: Person, organizationId: string, role: string, permission: Record<string, string[]>) =>
  p.client.post(`${ORG}/create-role`, { role, permission, organizationId });

export const roleOf = async (target: TestServer, memberId: string) =>
  (await query<{ role: string }>(target.database, `SELECT "role" FROM "member" WHERE "id" = ?`, [memberId]))[0]?.role;
