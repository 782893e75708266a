// The hot queries use indexes as the data grows (issue 28, ADR 044): on PostgreSQL, with a few thousand rows in
// every table and ANALYZE done, the statements Prisma actually sends for each list, the session read, sign-in's
// lookup, the owner counts and housekeeping are captured off the wire and EXPLAINed with their own parameters.
// A sequential scan of any of the large tables fails the test with the statement and its plan.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDomain, type DomainHandle } from "../support/domain";

const LARGE = new Set(["user", "session", "account", "member", "invitation", "organization", "team", "teamMember", "organizationRole"]);

let domain: DomainHandle;
let sql: pg.Client;
const captured: { text: string; values: unknown[] }[] = [];
const originalQuery = pg.Client.prototype.query;

beforeAll(async () => {
  domain = await openDomain("postgres");
  sql = new pg.Client({ connectionString: domain.database.url });
  await sql.connect();
  // 50 000 users with a password each (fewer, and fetching a page's 100 users by id reads the whole table
  // as cheaply as the index); 1 000 small organizations of 5 members and one of 2 000; 20 000 sessions
  // (a tenth expired); 5 000 invitations.
  await sql.query(`
    INSERT INTO "user" ("id", "name", "email", "createdAt", "updatedAt")
      SELECT 'u' || g, 'User ' || g, 'u' || g || '@example.com', now(), now() FROM generate_series(1, 50000) g;
    INSERT INTO "account" ("id", "accountId", "providerId", "userId", "password", "createdAt", "updatedAt")
      SELECT 'a' || g, 'u' || g, 'credential', 'u' || g, 'hash', now(), now() FROM generate_series(1, 50000) g;
    INSERT INTO "organization" ("id", "name", "slug", "createdAt")
      SELECT 'o' || g, 'Org ' || g, 'o' || g, now() FROM generate_series(0, 1000) g;
    INSERT INTO "member" ("id", "organizationId", "userId", "role", "createdAt")
      SELECT 'big' || g, 'o0', 'u' || g, CASE WHEN g = 1 THEN 'owner' WHEN g % 50 = 0 THEN 'admin,owner' ELSE 'member' END,
             now() + g * interval '1 second' FROM generate_series(1, 2000) g;
    INSERT INTO "member" ("id", "organizationId", "userId", "role", "createdAt")
      SELECT 'small' || o || '-' || k, 'o' || o, 'u' || (1 + (o * 5 + k) % 5000), CASE WHEN k = 0 THEN 'owner' ELSE 'member' END, now()
      FROM generate_series(1, 1000) o, generate_series(0, 4) k;
    INSERT INTO "session" ("id", "userId", "token", "expiresAt", "createdAt", "updatedAt")
      SELECT 's' || g, 'u' || (1 + g % 5000), 't' || g, now() + CASE WHEN g % 10 = 0 THEN interval '-1 day' ELSE interval '1 day' END,
             now(), now() - g * interval '1 second' FROM generate_series(1, 20000) g;
    INSERT INTO "invitation" ("id", "organizationId", "email", "role", "status", "inviterId", "expiresAt", "createdAt")
      SELECT 'i' || g, 'o' || (g % 1001), 'u' || g || '@example.com', 'member', 'pending', 'u1', now() + interval '1 day', now()
      FROM generate_series(1, 5000) g;
    -- Teams (issue 42): 4 000 in the big organization and 46 000 in the small ones (fewer, and fetching a page's
    -- teams by id reads the whole table as cheaply as the index); 26 000 memberships.
    INSERT INTO "team" ("id", "name", "normalizedName", "organizationId", "createdAt", "updatedAt")
      SELECT 'tm' || g, 'Team ' || g, 'team ' || g, CASE WHEN g <= 4000 THEN 'o0' ELSE 'o' || (1 + g % 1000) END,
             now() + g * interval '1 second', now() FROM generate_series(1, 50000) g;
    INSERT INTO "teamMember" ("id", "teamId", "userId", "createdAt")
      SELECT 'tmm' || g, 'tm' || (2 + g % 49999), 'u' || (2 + (g * 7) % 49999), now() + g * interval '1 second' FROM generate_series(1, 20000) g;
    -- A big team (tm1: 3 000 members) and a user in many teams (u1: 3 000), so their pages are index ranges.
    INSERT INTO "teamMember" ("id", "teamId", "userId", "createdAt")
      SELECT 'tmb' || g, 'tm1', 'u' || (1 + g), now() + g * interval '1 second' FROM generate_series(1, 3000) g;
    INSERT INTO "teamMember" ("id", "teamId", "userId", "createdAt")
      SELECT 'tmu' || g, 'tm' || g, 'u1', now() + g * interval '1 second' FROM generate_series(1, 3000) g;
    -- Custom roles (issue 42, ADR 069): 3 000 in the big organization (a deployment may raise the limit; a page is
    -- still an index range), about 17 in each small one.
    INSERT INTO "organizationRole" ("id", "organizationId", "role", "permission", "createdAt", "updatedAt")
      SELECT 'or' || g, CASE WHEN g <= 3000 THEN 'o0' ELSE 'o' || (1 + g % 1000) END, 'role' || g, '{"team":["create"]}', now() + g * interval '1 second', now() FROM generate_series(1, 20000) g;
  `);
  await sql.query("VACUUM ANALYZE");
  // Every statement any pg client sends from here on (Prisma's adapter included), with its parameters.
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const [config, values] = args as [string | { text?: string; values?: unknown[] }, unknown[] | undefined];
    if (this !== sql) {
      const text = typeof config === "string" ? config : config?.text;
      if (text) captured.push({ text, values: (typeof config === "string" ? values : config.values) ?? [] });
    }
    return (originalQuery as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof pg.Client.prototype.query;
}, 120_000);

afterAll(async () => {
  pg.Client.prototype.query = originalQuery;
  await sql?.end();
  await domain?.close();
});

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

function seqScans(node: PlanNode): string[] {
  const own = node["Node Type"] === "Seq Scan" && LARGE.has(node["Relation Name"] ?? "") ? [node["Relation Name"]!] : [];
  return [...own, ...(node.Plans ?? []).flatMap(seqScans)];
}

function sorts(node: PlanNode): string[] {
  return [...(node["Node Type"] === "Sort" ? ["Sort"] : []), ...(node.Plans ?? []).flatMap(sorts)];
}

/**
 * Runs `work`, then EXPLAINs each statement it sent; returns how many were read or written through a plan.
 * `inIndexOrder`: a statement that reads that table in order must get the order from an index, not sort the rows.
 */
async function expectNoSequentialScans(work: () => Promise<unknown>, options: { inIndexOrder?: string } = {}): Promise<number> {
  captured.length = 0;
  await work();
  const statements = captured.filter((s) => /^\s*(SELECT|UPDATE|DELETE|WITH)\b/i.test(s.text) && !/pg_notify/.test(s.text));
  for (const { text, values } of statements) {
    const { rows } = await sql.query(`EXPLAIN (FORMAT JSON) ${text}`, values);
    const plan = (rows[0]["QUERY PLAN"] as { Plan: PlanNode }[])[0].Plan;
    expect(seqScans(plan), `${text}\n${JSON.stringify(plan, null, 1)}`).toEqual([]);
    if (options.inIndexOrder && text.includes(`FROM "public"."${options.inIndexOrder}"`) && /ORDER BY/.test(text)) {
      expect(sorts(plan), `${text}\n${JSON.stringify(plan, null, 1)}`).toEqual([]);
    }
  }
  return statements.length;
}

describe("query plans on PostgreSQL with thousands of rows", () => {
  const current = (userId: string, activeOrganizationId: string | null = "o0") =>
    ({ session: { id: "s1", activeOrganizationId }, user: { id: userId, email: `${userId}@example.com`, emailVerified: true } }) as never;

  it("the session read and sign-in's lookup", async () => {
    const store = await import("~/auth/session/store.server");
    expect(await expectNoSequentialScans(() => store.findSessionWithUser("t1"))).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => store.findUserWithPasswordHash("u42@example.com", "credential"))).toBeGreaterThan(0);
  });

  it("list-sessions", async () => {
    const sessions = await import("~/auth/session/own-sessions.server");
    expect(await expectNoSequentialScans(() => sessions.listSessions("u1"))).toBeGreaterThan(0);
  });

  it("list-members (first page, a deep page, another order), get-full-organization, list-invitations, organization list", async () => {
    const members = await import("~/auth/organization/members.server");
    const organizations = await import("~/auth/organization/organizations.server");
    const invitations = await import("~/auth/organization/invitations.server");
    // Joining order is the index's order: a page is an index range, not every member sorted (the 2.1 ms).
    const inMemberOrder = { inIndexOrder: "member" };
    expect(await expectNoSequentialScans(() => members.listMembers(current("u1"), {}), inMemberOrder)).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => members.listMembers(current("u1"), { limit: 100, offset: 1800 }), inMemberOrder)).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => members.listMembers(current("u1"), { sortBy: "role", filterField: "role", filterValue: "admin" }))).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => organizations.getFullOrganization(current("u1"), { organizationId: "o0" }), inMemberOrder)).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => invitations.listInvitations(current("u1"), "o0"))).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => invitations.listUserInvitations(current("u7")))).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => organizations.listOrganizations("u1"))).toBeGreaterThan(0);
  });

  it("list-teams, list-team-members, list-user-teams, get-full-organization's teams, a team's removal (issue 42)", async () => {
    const teams = await import("~/auth/teams/teams.server");
    const teamMembers = await import("~/auth/teams/team-members.server");
    const owner = current("u1");
    expect(await expectNoSequentialScans(() => teams.listTeams(owner, {}), { inIndexOrder: "team" })).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => teams.listTeams(owner, { limit: 100, offset: 1000 }), { inIndexOrder: "team" })).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => teamMembers.listTeamMembers(owner, { teamId: "tm1" }), { inIndexOrder: "teamMember" })).toBeGreaterThan(0);
    // Across organizations: the user's memberships through the (userId, …) index, those of organizations they left
    // filtered out, then ordered (a sort of one person's teams, never of the table).
    expect(await expectNoSequentialScans(() => teamMembers.listUserTeams(owner, {}))).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => teamMembers.listUserTeams(owner, { organizationId: "o0", userId: "u7" }))).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => teams.teamsForFullOrganization("o0"), { inIndexOrder: "team" })).toBeGreaterThan(0);
    // Removing a team finds the sessions that had it active through the activeTeamId index.
    expect(await expectNoSequentialScans(() => teams.clearActiveTeam(domain.db, { activeTeamId: "tm5" }))).toBeGreaterThan(0);
  });

  it("list-roles, the custom roles a decision reads, and a role's holders (issue 42)", async () => {
    const roles = await import("~/auth/organization/roles.server");
    const customRoles = await import("~/auth/organization/custom-roles.server");
    const inRoleOrder = { inIndexOrder: "organizationRole" };
    expect(await expectNoSequentialScans(() => roles.listRoles(current("u1"), {}), inRoleOrder)).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => roles.listRoles(current("u1"), { limit: 5, offset: 10 }), inRoleOrder)).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => customRoles.customRolesAmong(domain.db, "o0", "member,role1001", "role2002"))).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => customRoles.allCustomRoles(domain.db, "o0"), inRoleOrder)).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => roles.holdersOf(domain.db, "o0", "role1001"))).toBeGreaterThan(0);
  });

  it("the owner counts and the delete-user check", async () => {
    const access = await import("~/auth/organization/access.server");
    expect(await expectNoSequentialScans(async () => expect(await access.countOtherOwners(domain.db, "o0", "big1")).toBe(40))).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(() => access.assertNoOrganizationLeftWithoutOwner(domain.db, "u2").catch(() => null))).toBeGreaterThan(0);
  });

  it("the admin user search: an address by its beginning or anywhere in it, a name anywhere (ADR 052)", async () => {
    const users = await import("~/auth/admin/users.server");
    const admin = { session: { id: "s1" }, user: { id: "u1", role: "admin" } } as never;
    const search = (searchField: "email" | "name", searchOperator: "starts_with" | "contains", searchValue: string) =>
      users.listUsers(admin, { searchField, searchOperator, searchValue, limit: 25 });
    expect(await expectNoSequentialScans(async () => expect((await search("email", "starts_with", "u4242")).total).toBe(11))).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(async () => expect((await search("email", "contains", "4242@")).total).toBe(5))).toBeGreaterThan(0);
    expect(await expectNoSequentialScans(async () => expect((await search("name", "contains", "user 4242")).total).toBe(11))).toBeGreaterThan(0);
    // The console counts no further than it shows: past the cap, the total says "at least".
    const capped = await users.listUsers(admin, { limit: 25 }, { countUpTo: 1000 });
    expect(capped).toMatchObject({ total: 1000, totalIsExact: false });
    expect(capped.users).toHaveLength(25);
    expect(await users.listUsers(admin, { searchField: "email", searchOperator: "starts_with", searchValue: "u4242", limit: 25 }, { countUpTo: 1000 })).toMatchObject({
      total: 11,
      totalIsExact: true,
    });
  });

  it("housekeeping's batches of expired sessions", async () => {
    const housekeeping = await import("~/auth/housekeeping.server");
    expect(await expectNoSequentialScans(() => housekeeping.deleteExpiredSessions({ maxBatches: 1 }))).toBeGreaterThan(0);
  });
});
