// Organizations (issue 9, spec §3–§9): create, slugs, update, delete, the full organization, the active one,
// members, roles, the permission table, leaving and removing — every rule and message, on both databases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, signUp, uniqueEmail } from "../support/client";
import { startServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

const ORG = "/api/auth/organization";

let server: TestServer;
let noCreation: TestServer; // AUTH_ORGANIZATION_CREATION=off
let limited: TestServer; // AUTH_ORGANIZATION_LIMIT=1, AUTH_ORGANIZATION_MEMBERSHIP_LIMIT=2

beforeAll(async () => {
  const base = { AUTH_EMAIL_VERIFICATION: "off" };
  [server, noCreation, limited] = await Promise.all([
    startServer({ env: base }),
    startServer({ env: { ...base, AUTH_ORGANIZATION_CREATION: "off" } }),
    startServer({ env: { ...base, AUTH_ORGANIZATION_LIMIT: "1", AUTH_ORGANIZATION_MEMBERSHIP_LIMIT: "2" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server, noCreation, limited].map((s) => s?.stop()));
});

export interface Person {
  client: ApiClient;
  id: string;
  email: string;
}

async function person(target: TestServer = server, prefix = "org"): Promise<Person> {
  const client = new ApiClient(target.baseUrl);
  const created = await signUp(client, { email: uniqueEmail(prefix) });
  return { client, id: created.user.id, email: created.email };
}

let slugCounter = 0;
const uniqueSlug = (prefix = "team") => `${prefix}-${Date.now().toString(36)}-${++slugCounter}`;

async function createOrg(owner: Person, slug = uniqueSlug()) {
  const response = await owner.client.post(`${ORG}/create`, { name: `Team ${slug}`, slug });
  expect(response.status, response.text).toBe(200);
  return response.body as { id: string; slug: string; members: Array<{ id: string; role: string; userId: string }> };
}

/** Makes `who` a member of the organization with `role` (straight into the database: invitations are tested elsewhere). */
async function addMember(target: TestServer, organizationId: string, who: Person, role: string): Promise<string> {
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

async function team(target: TestServer = server) {
  const [owner, admin, member, outsider] = await Promise.all([person(target), person(target), person(target), person(target)]);
  const org = await createOrg(owner);
  const adminId = await addMember(target, org.id, admin, "admin");
  const memberId = await addMember(target, org.id, member, "member");
  return { owner, admin, member, outsider, org, ownerMemberId: org.members[0].id, adminId, memberId };
}

const session = async (p: Person) => (await p.client.get("/api/auth/get-session")).body.session;

describe("create and check-slug", () => {
  it("makes the creator an owner and the organization active", async () => {
    const owner = await person();
    const slug = uniqueSlug();
    const response = await owner.client.post(`${ORG}/create`, { name: "Acme", slug, logo: "https://example.com/logo.png", metadata: { plan: "pro" } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: "Acme", slug, logo: "https://example.com/logo.png", metadata: { plan: "pro" } });
    expect(response.body.members).toEqual([expect.objectContaining({ userId: owner.id, role: "owner", organizationId: response.body.id })]);
    expect((await session(owner)).activeOrganizationId).toBe(response.body.id);
  });

  it("keeps the current active organization when asked", async () => {
    const owner = await person();
    const first = await createOrg(owner);
    const second = await owner.client.post(`${ORG}/create`, { name: "Second", slug: uniqueSlug(), keepCurrentActiveOrganization: true });
    expect(second.status).toBe(200);
    expect((await session(owner)).activeOrganizationId).toBe(first.id);
  });

  it("refuses a taken slug, and check-slug says which are free", async () => {
    const owner = await person();
    const org = await createOrg(owner);
    const again = await owner.client.post(`${ORG}/create`, { name: "Copy", slug: org.slug });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: "ORGANIZATION_ALREADY_EXISTS", message: "Organization already exists" });
    expect((await owner.client.post(`${ORG}/check-slug`, { slug: org.slug })).body.code).toBe("ORGANIZATION_ALREADY_EXISTS");
    expect((await owner.client.post(`${ORG}/check-slug`, { slug: uniqueSlug("free") })).body).toEqual({ status: true });
  });

  it("refuses slugs that are not lowercase letters, digits and dashes, and bodies of the wrong shape", async () => {
    const owner = await person();
    for (const slug of ["Upper", "with space", "-edge", "ünï", "a/b", ""]) {
      const response = await owner.client.post(`${ORG}/create`, { name: "X", slug });
      expect(response.status, slug).toBe(400);
      expect(response.body.code).toBe("VALIDATION_ERROR");
    }
    for (const body of [{}, { name: 5, slug: "ok" }, { name: "X", slug: ["a"] }, { name: "X", slug: "ok-1", metadata: { n: 1 } }, { name: "X", slug: "ok-2", logo: "javascript:alert(1)" }]) {
      const response = await owner.client.post(`${ORG}/create`, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe("VALIDATION_ERROR");
    }
    const broken = await owner.client.request("POST", `${ORG}/create`, { rawBody: "{", headers: { "content-type": "application/json" } });
    expect(broken.body.code).toBe("INVALID_JSON");
    expect((await owner.client.post(`${ORG}/update`, { data: "x" })).body.code).toBe("VALIDATION_ERROR");
    expect((await owner.client.post(`${ORG}/has-permission`, { permissions: ["member"] })).body.code).toBe("VALIDATION_ERROR");
    expect((await owner.client.post(`${ORG}/update-member-role`, { memberId: "x", role: 7 })).body.code).toBe("VALIDATION_ERROR");
    expect((await owner.client.get(`${ORG}/list-members?limit=-1`)).body.code).toBe("VALIDATION_ERROR");
  });

  it("needs a session, and a browser may not create for someone else", async () => {
    const anonymous = new ApiClient(server.baseUrl);
    expect((await anonymous.post(`${ORG}/create`, { name: "X", slug: uniqueSlug() })).status).toBe(401);
    expect((await anonymous.get(`${ORG}/list`)).status).toBe(401);
    const [owner, other] = await Promise.all([person(), person()]);
    const response = await owner.client.post(`${ORG}/create`, { name: "X", slug: uniqueSlug(), userId: other.id });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION");
  });

  it("is refused when creation is turned off", async () => {
    const owner = await person(noCreation);
    const response = await owner.client.post(`${ORG}/create`, { name: "X", slug: uniqueSlug() });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION", message: "You are not allowed to create a new organization" });
  });

  it("stops at the organization limit", async () => {
    const owner = await person(limited);
    await createOrg(owner);
    const response = await owner.client.post(`${ORG}/create`, { name: "Two", slug: uniqueSlug() });
    expect(response.status).toBe(403);
    expect(response.body.code).toBe("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS");
  });
});

describe("reading organizations", () => {
  it("lists the caller's organizations and gives the full organization to members only", async () => {
    const t = await team();
    const list = await t.admin.client.get(`${ORG}/list`);
    expect(list.body.map((o: { id: string }) => o.id)).toEqual([t.org.id]);
    expect((await t.outsider.client.get(`${ORG}/list`)).body).toEqual([]);

    const full = await t.member.client.get(`${ORG}/get-full-organization?organizationId=${t.org.id}`);
    expect(full.status).toBe(200);
    expect(full.body.members).toHaveLength(3);
    expect(full.body.members.find((m: { userId: string }) => m.userId === t.admin.id)).toMatchObject({
      role: "admin",
      user: { id: t.admin.id, email: t.admin.email, name: "Test User" },
    });
    expect(full.body.invitations).toEqual([]);
    const bySlug = await t.member.client.get(`${ORG}/get-full-organization?organizationSlug=${t.org.slug}`);
    expect(bySlug.body.id).toBe(t.org.id);

    for (const path of [`get-full-organization?organizationId=${t.org.id}`, `get-full-organization?organizationSlug=${t.org.slug}`, `list-members?organizationId=${t.org.id}`]) {
      const outsider = await t.outsider.client.get(`${ORG}/${path}`);
      expect(outsider.status, path).toBe(403);
      expect(outsider.body).toEqual({ code: "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", message: "User is not a member of the organization" });
      expect(outsider.text).not.toContain(t.owner.email);
    }
    const unknown = await t.owner.client.get(`${ORG}/get-full-organization?organizationId=nope`);
    expect(unknown.body).toEqual({ code: "ORGANIZATION_NOT_FOUND", message: "Organization not found" });
  });

  it("answers null for the full organization without an active one", async () => {
    const someone = await person();
    const response = await someone.client.get(`${ORG}/get-full-organization`);
    expect(response.status).toBe(200);
    expect(response.body).toBeNull();
    expect((await someone.client.get(`${ORG}/get-active-member`)).body.code).toBe("NO_ACTIVE_ORGANIZATION");
    expect((await someone.client.get(`${ORG}/list-members`)).body).toEqual({ code: "NO_ACTIVE_ORGANIZATION", message: "No active organization" });
  });

  it("sets, reads and unsets the active organization", async () => {
    const t = await team();
    expect((await session(t.admin)).activeOrganizationId).toBeNull();
    const set = await t.admin.client.post(`${ORG}/set-active`, { organizationSlug: t.org.slug });
    expect(set.body).toMatchObject({ id: t.org.id, members: expect.any(Array) });
    expect((await session(t.admin)).activeOrganizationId).toBe(t.org.id);
    expect((await t.admin.client.get(`${ORG}/get-active-member`)).body).toMatchObject({ id: t.adminId, role: "admin", user: { email: t.admin.email } });
    expect((await t.admin.client.get(`${ORG}/get-active-member-role`)).body).toEqual({ role: "admin" });
    expect((await t.admin.client.get(`${ORG}/get-active-member-role?userId=${t.owner.id}`)).body).toEqual({ role: "owner" });
    const members = await t.admin.client.get(`${ORG}/list-members?limit=2`);
    expect(members.body.total).toBe(3);
    expect(members.body.members).toHaveLength(2);

    const outsider = await t.outsider.client.post(`${ORG}/set-active`, { organizationId: t.org.id });
    expect(outsider.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    expect((await session(t.outsider)).activeOrganizationId).toBeNull();

    expect((await t.admin.client.post(`${ORG}/set-active`, { organizationId: null })).body).toBeNull();
    expect((await session(t.admin)).activeOrganizationId).toBeNull();
  });
});

describe("roles and the permission table (spec §6)", () => {
  const TABLE: Array<[string, Record<string, string[]>, boolean]> = [
    ["owner", { organization: ["update", "delete"], invitation: ["create", "cancel"], member: ["create", "update", "delete"] }, true],
    ["admin", { organization: ["update"], invitation: ["create", "cancel"], member: ["create", "update", "delete"] }, true],
    ["admin", { organization: ["delete"] }, false],
    ["member", { organization: ["update"] }, false],
    ["member", { invitation: ["create"] }, false],
    ["member", { member: ["delete"] }, false],
    ["owner", { billing: ["read"] }, false],
  ];

  it.each(TABLE)("%s: %j → %s", async (role, permissions, expected) => {
    const t = await team();
    const who = role === "owner" ? t.owner : role === "admin" ? t.admin : t.member;
    const response = await who.client.post(`${ORG}/has-permission`, { permissions, organizationId: t.org.id });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ error: null, success: expected });
  });

  it("holds the union of several comma-separated roles", async () => {
    const t = await team();
    await query(server.database, `UPDATE "member" SET "role" = 'member,admin' WHERE "id" = ?`, [t.memberId]);
    const response = await t.member.client.post(`${ORG}/has-permission`, { permission: { member: ["delete"] }, organizationId: t.org.id });
    expect(response.body.success).toBe(true);
  });

  it("lets only owners and admins update, only owners delete", async () => {
    const t = await team();
    const byMember = await t.member.client.post(`${ORG}/update`, { organizationId: t.org.id, data: { name: "Nope" } });
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION");
    const byOutsider = await t.outsider.client.post(`${ORG}/update`, { organizationId: t.org.id, data: { name: "Nope" } });
    expect(byOutsider.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    const newSlug = uniqueSlug("renamed");
    const byAdmin = await t.admin.client.post(`${ORG}/update`, { organizationId: t.org.id, data: { name: "Renamed", slug: newSlug, metadata: { a: "b" } } });
    expect(byAdmin.body).toMatchObject({ id: t.org.id, name: "Renamed", slug: newSlug, metadata: { a: "b" } });
    const other = await createOrg(t.owner);
    const clash = await t.owner.client.post(`${ORG}/update`, { organizationId: t.org.id, data: { slug: other.slug } });
    expect(clash.body.code).toBe("ORGANIZATION_ALREADY_EXISTS");

    const deleteByAdmin = await t.admin.client.post(`${ORG}/delete`, { organizationId: t.org.id });
    expect(deleteByAdmin.status).toBe(403);
    expect(deleteByAdmin.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION");
    await t.owner.client.post(`${ORG}/set-active`, { organizationId: t.org.id });
    await t.admin.client.post(`${ORG}/set-active`, { organizationId: t.org.id });
    expect((await t.owner.client.post(`${ORG}/delete`, { organizationId: t.org.id })).status).toBe(200);
    expect(await count(server.database, "organization", `"id" = ?`, [t.org.id])).toBe(0);
    expect(await count(server.database, "member", `"organizationId" = ?`, [t.org.id])).toBe(0);
    // Deleting the active organization unsets it, for every session that had it.
    expect((await session(t.owner)).activeOrganizationId).toBeNull();
    expect((await session(t.admin)).activeOrganizationId).toBeNull();
  });
});

describe("members: roles, removing, leaving", () => {
  it("changes roles within the rules", async () => {
    const t = await team();
    const byMember = await t.member.client.post(`${ORG}/update-member-role`, { memberId: t.adminId, role: "member", organizationId: t.org.id });
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    const adminMakesOwner = await t.admin.client.post(`${ORG}/update-member-role`, { memberId: t.memberId, role: "owner", organizationId: t.org.id });
    expect(adminMakesOwner.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    const adminDemotesOwner = await t.admin.client.post(`${ORG}/update-member-role`, { memberId: t.ownerMemberId, role: "member", organizationId: t.org.id });
    expect(adminDemotesOwner.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    const unknownRole = await t.owner.client.post(`${ORG}/update-member-role`, { memberId: t.memberId, role: "superuser", organizationId: t.org.id });
    expect(unknownRole.body).toEqual({ code: "ROLE_NOT_FOUND", message: "Role not found" });
    const missing = await t.owner.client.post(`${ORG}/update-member-role`, { memberId: "nobody", role: "admin", organizationId: t.org.id });
    expect(missing.body).toEqual({ code: "MEMBER_NOT_FOUND", message: "Member not found" });

    const promoted = await t.admin.client.post(`${ORG}/update-member-role`, { memberId: t.memberId, role: ["admin", "member"], organizationId: t.org.id });
    expect(promoted.body).toMatchObject({ id: t.memberId, role: "admin,member", user: { email: t.member.email } });

    const lastOwner = await t.owner.client.post(`${ORG}/update-member-role`, { memberId: t.ownerMemberId, role: "admin", organizationId: t.org.id });
    expect(lastOwner.body.code).toBe("YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER");
    expect((await t.owner.client.post(`${ORG}/update-member-role`, { memberId: t.adminId, role: "owner", organizationId: t.org.id })).status).toBe(200);
    expect((await t.owner.client.post(`${ORG}/update-member-role`, { memberId: t.ownerMemberId, role: "member", organizationId: t.org.id })).status).toBe(200);
  });

  it("removes members by id or e-mail, within the rules", async () => {
    const t = await team();
    const byMember = await t.member.client.post(`${ORG}/remove-member`, { memberIdOrEmail: t.adminId, organizationId: t.org.id });
    expect(byMember.status).toBe(403);
    expect(byMember.body).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER", message: "You are not allowed to delete this member" });
    const adminRemovesOwner = await t.admin.client.post(`${ORG}/remove-member`, { memberIdOrEmail: t.ownerMemberId, organizationId: t.org.id });
    expect(adminRemovesOwner.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
    const byOutsider = await t.outsider.client.post(`${ORG}/remove-member`, { memberIdOrEmail: t.memberId, organizationId: t.org.id });
    expect(byOutsider.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    const notHere = await t.owner.client.post(`${ORG}/remove-member`, { memberIdOrEmail: t.outsider.email, organizationId: t.org.id });
    expect(notHere.body.code).toBe("MEMBER_NOT_FOUND");

    await t.member.client.post(`${ORG}/set-active`, { organizationId: t.org.id });
    const removed = await t.admin.client.post(`${ORG}/remove-member`, { memberIdOrEmail: t.member.email.toUpperCase(), organizationId: t.org.id });
    expect(removed.status).toBe(200);
    expect(removed.body.member).toMatchObject({ id: t.memberId, userId: t.member.id });
    expect((await session(t.member)).activeOrganizationId).toBeNull();
    expect((await t.member.client.get(`${ORG}/get-full-organization?organizationId=${t.org.id}`)).status).toBe(403);

    const self = await t.admin.client.post(`${ORG}/remove-member`, { memberIdOrEmail: t.adminId, organizationId: t.org.id });
    expect(self.status).toBe(200);
    const onlyOwner = await t.owner.client.post(`${ORG}/remove-member`, { memberIdOrEmail: t.ownerMemberId, organizationId: t.org.id });
    expect(onlyOwner.body).toEqual({ code: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER", message: "You cannot leave the organization as the only owner" });
  });

  it("lets members leave, except the only owner; leaving unsets the active organization", async () => {
    const t = await team();
    const onlyOwner = await t.owner.client.post(`${ORG}/leave`, { organizationId: t.org.id });
    expect(onlyOwner.status).toBe(400);
    expect(onlyOwner.body.code).toBe("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
    await t.member.client.post(`${ORG}/set-active`, { organizationId: t.org.id });
    const left = await t.member.client.post(`${ORG}/leave`, { organizationId: t.org.id });
    expect(left.body).toMatchObject({ id: t.memberId, userId: t.member.id });
    expect((await session(t.member)).activeOrganizationId).toBeNull();
    expect((await t.member.client.post(`${ORG}/leave`, { organizationId: t.org.id })).body.code).toBe("MEMBER_NOT_FOUND");
    expect((await t.outsider.client.post(`${ORG}/leave`, { organizationId: t.org.id })).body.code).toBe("MEMBER_NOT_FOUND");
  });
});

describe("races on one organization (exactly one winner)", () => {
  it("two creates of one slug make one organization", async () => {
    const [a, b] = await Promise.all([person(), person()]);
    const slug = uniqueSlug("race");
    const results = await Promise.all([a, b].map((p) => p.client.post(`${ORG}/create`, { name: "Race", slug })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body.code).toBe("ORGANIZATION_ALREADY_EXISTS");
    expect(await count(server.database, "organization", `"slug" = ?`, [slug])).toBe(1);
    expect(await count(server.database, "member", `"organizationId" IN (SELECT "id" FROM "organization" WHERE "slug" = ?)`, [slug])).toBe(1);
  });

  it("two owners demoting each other at once leave one owner", async () => {
    for (let round = 0; round < 3; round++) {
      const t = await team();
      await query(server.database, `UPDATE "member" SET "role" = 'owner' WHERE "id" = ?`, [t.adminId]);
      const results = await Promise.all([
        t.owner.client.post(`${ORG}/update-member-role`, { memberId: t.adminId, role: "member", organizationId: t.org.id }),
        t.admin.client.post(`${ORG}/update-member-role`, { memberId: t.ownerMemberId, role: "member", organizationId: t.org.id }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 403]);
      const owners = await query<{ role: string }>(server.database, `SELECT "role" FROM "member" WHERE "organizationId" = ? AND "role" = 'owner'`, [t.org.id]);
      expect(owners).toHaveLength(1);
    }
  });
});

describe("the membership limit", () => {
  it("counts members when an organization grows", async () => {
    const owner = await person(limited);
    const org = await createOrg(owner);
    expect(await count(limited.database, "member", `"organizationId" = ?`, [org.id])).toBe(1);
  });
});
