// Helpers of the custom-roles API tests (issue 42, ADR 069): people, an organization with an owner, an admin, a plain
// member and an outsider, and roles made through the API.
import type { TestServer } from "./server";
import { ORG, organizationWithPeople, type Person } from "./organizations";
import { query } from "./sql";

export { addMember, ORG, person, uniqueSlug, type Person } from "./organizations";

/** An organization with an owner, an admin, a plain member and someone outside it. */
export const organization = (target: TestServer) => organizationWithPeople(target, "roles");

export const createRole = (p: Person, organizationId: string, role: string, permission: Record<string, string[]>) =>
  p.client.post(`${ORG}/create-role`, { role, permission, organizationId });

export const roleOf = async (target: TestServer, memberId: string) =>
  (await query<{ role: string }>(target.database, `SELECT "role" FROM "member" WHERE "id" = ?`, [memberId]))[0]?.role;
