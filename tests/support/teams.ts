// Helpers of the teams API tests (issue 42): people, an organization with an owner, an admin, a member and an
// outsider, teams, and the session's active team — against whichever test server is given.
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
  const created = await signUp(client, { email: uniqueEmail("teams") });
  return { client, id: created.user.id, email: created.email };
}

let slugCounter = 0;
export const uniqueSlug = () => `teams-${Date.now().toString(36)}-${++slugCounter}-${Math.random().toString(36).slice(2, 6)}`;

export async function createOrg(owner: Person) {
  const slug = uniqueSlug();
  const response = await owner.client.post(`${ORG}/create`, { name: `Org ${slug}`, slug });
  expect(response.status, response.text).toBe(200);
  return response.body as { id: string; name: string };
}

/** Makes `who` a member with `role` (straight into the database: invitations are tested on their own). */
export async function addMember(target: TestServer, organizationId: string, who: Person, role: string) {
  await query(target.database, `INSERT INTO "member" ("id", "organizationId", "userId", "role", "createdAt") VALUES (?, ?, ?, ?, ?)`, [
    `m-${Math.random().toString(36).slice(2)}`,
    organizationId,
    who.id,
    role,
    target.database.kind === "sqlite" ? Date.now() : new Date(),
  ]);
}

/** An organization with an owner, an admin, a member and an outsider, the owner's session on it. */
export async function setting(target: TestServer) {
  const [owner, admin, member, outsider] = await Promise.all([person(target), person(target), person(target), person(target)]);
  const org = await createOrg(owner);
  await addMember(target, org.id, admin, "admin");
  await addMember(target, org.id, member, "member");
  return { owner, admin, member, outsider, org };
}
export type Setting = Awaited<ReturnType<typeof setting>>;

export async function createTeam(who: Person, organizationId: string, name: string) {
  const response = await who.client.post(`${ORG}/create-team`, { name, organizationId });
  expect(response.status, response.text).toBe(200);
  return response.body as { id: string; name: string; organizationId: string };
}

export const activeTeamOf = async (p: Person) => (await p.client.get("/api/auth/get-session")).body.session.activeTeamId;
export const setActiveOrg = (p: Person, organizationId: string | null) => p.client.post(`${ORG}/set-active`, { organizationId });
