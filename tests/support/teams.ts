// Helpers of the teams API tests (issue 42): people, an organization with an owner, an admin, a member and an
// outsider, teams, and the session's active team — against whichever test server is given.
import { expect } from "vitest";
import type { TestServer } from "./server";
import { createOrg as createOrganization, ORG, organizationWithPeople, person as personOf, type Person } from "./organizations";

export { addMember, ORG, uniqueSlug, type Person } from "./organizations";

export const person = (target: TestServer) => personOf(target, "teams");
export const createOrg = (owner: Person) => createOrganization(owner, "teams");

/** An organization with an owner, an admin, a member and an outsider, the owner's session on it. */
export const setting = (target: TestServer) => organizationWithPeople(target, "teams");
export type Setting = Awaited<ReturnType<typeof setting>>;

export async function createTeam(who: Person, organizationId: string, name: string) {
  const response = await who.client.post(`${ORG}/create-team`, { name, organizationId });
  expect(response.status, response.text).toBe(200);
  return response.body as { id: string; name: string; organizationId: string };
}

export const activeTeamOf = async (p: Person) => (await p.client.get("/api/auth/get-session")).body.session.activeTeamId;
export const setActiveOrg = (p: Person, organizationId: string | null) => p.client.post(`${ORG}/set-active`, { organizationId });
