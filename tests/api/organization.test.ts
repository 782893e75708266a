// Organizations (issue 9, spec §3–§9): create, slugs, update, delete, the full organization, the active one,
// members, roles, the permission table, leaving and removing — every rule and message, on both databases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, sessionShows, signUp, uniqueEmail, shownText } from "../support/client";
import { addMember, person as personOf, type Person } from "../support/organizations";
import { expectLifetime } from "../support/cookies";
import { checkMail, expectNoNewMail, mailCount, nextMail } from "../support/mail";
import { type Mailbox } from "../support/mailbox";
import { sharedMailbox, sharedServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

const ORG = "/api/auth/organization";

let server: TestServer;
let noCreation: TestServer; // AUTH_ORGANIZATION_CREATION=off
let limited: TestServer; // AUTH_ORGANIZATION_LIMIT=1, AUTH_ORGANIZATION_MEMBERSHIP_LIMIT=2, AUTH_INVITATION_REQUIRE_VERIFIED_EMAIL=off
let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await sharedMailbox();
  // No verification mail on sign-up: the only mail here is invitations. Users start unverified.
  const base = { AUTH_EMAIL_VERIFICATION: "off", SMTP_URL: mailbox.url };
  [server, noCreation, limited] = await Promise.all([
    sharedServer({ env: base }),
    sharedServer({ env: { ...base, AUTH_ORGANIZATION_CREATION: "off" } }),
    sharedServer({ env: { ...base, AUTH_ORGANIZATION_LIMIT: "1", AUTH_ORGANIZATION_MEMBERSHIP_LIMIT: "2", AUTH_INVITATION_REQUIRE_VERIFIED_EMAIL: "off" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server, noCreation, limited].map((s) => s?.stop()));
  await mailbox?.stop();
});

const person = (target: TestServer = server, prefix = "org"): Promise<Person> => personOf(target, prefix);

let slugCounter = 0;
const uniqueSlug = (prefix = "team") => `${prefix}-${Date.now().toString(36)}-${++slugCounter}`;

async function createOrg(owner: Person, slug = uniqueSlug()) {
  const response = await owner.client.post(`${ORG}/create`, { name: `Team ${slug}`, slug });
  expect(response.status, response.text).toBe(200);
  return response.body as { id: string; slug: string; members: Array<{ id: string; role: string; userId: string }> };
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

  it("holds the organization limit under concurrent creates: of five at once, exactly one gets through (issue 24)", async () => {
    const owner = await person(limited);
    const answers = await Promise.all(Array.from({ length: 5 }, () => owner.client.post(`${ORG}/create`, { name: "Race", slug: uniqueSlug("race") })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 403, 403, 403, 403]);
    for (const refused of answers.filter((a) => a.status === 403)) expect(refused.body.code).toBe("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS");
    expect(await count(limited.database, "member", `"userId" = ?`, [owner.id])).toBe(1);
    expect(await count(limited.database, "organization", `"name" = 'Race' AND "id" IN (SELECT "organizationId" FROM "member" WHERE "userId" = ?)`, [owner.id])).toBe(1);
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

describe("the organization page", () => {
  /** The row's "Role of …" label (React may split its text with an empty comment). */
  const roleControl = (email: string) => new RegExp(`Role of (<!-- -->)?${email.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}<`);
  it("shows each member only the controls the domain's rules allow them, however a role is written", async () => {
    const t = await team();
    // Written by another tool with a space: still an owner's role, to the page as to the domain.
    await query(server.database, `UPDATE "member" SET "role" = 'member, owner' WHERE "id" = ?`, [t.ownerMemberId]);
    const asAdmin = await t.admin.client.get(`/organizations/${t.org.slug}`);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.text).toContain(`aria-label="Remove ${t.member.email}"`);
    expect(asAdmin.text).toMatch(roleControl(t.member.email));
    expect(asAdmin.text).not.toContain(`aria-label="Remove ${t.owner.email}"`);
    expect(asAdmin.text).not.toMatch(roleControl(t.owner.email));
    expect(asAdmin.text).not.toContain(`<option value="owner">`);
    // …and what the page leaves out, the domain refuses.
    const removing = await t.admin.client.post(`${ORG}/remove-member`, { memberIdOrEmail: t.ownerMemberId, organizationId: t.org.id });
    expect(removing.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");

    const asOwner = await t.owner.client.get(`/organizations/${t.org.slug}`);
    expect(asOwner.text).toContain(`aria-label="Remove ${t.admin.email}"`);
    expect(asOwner.text).toContain(`<option value="owner">`);
    const asMember = await t.member.client.get(`/organizations/${t.org.slug}`);
    expect(asMember.text).not.toContain(`aria-label="Remove `);
    expect(shownText(asMember.text)).not.toContain("Role of ");
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

/**
 * Marks the address verified by hand, as an operator would, and waits until the person's server has heard of it
 * (on PostgreSQL the database announces the edit through NOTIFY, which arrives a moment after the commit).
 */
async function verify(target: TestServer, p: Person) {
  await query(target.database, `UPDATE "user" SET "emailVerified" = ? WHERE "id" = ?`, [target.database.kind === "sqlite" ? 1 : true, p.id]);
  await sessionShows(p.client, (session) => session?.user?.emailVerified === true);
}
// Issue 24: the subject names no user-written text (neither the organization nor the inviter).
const INVITE = /^You are invited to join an organization/;

async function invite(inviter: Person, organizationId: string, email: string, role = "member", extra: Record<string, unknown> = {}) {
  const seen = mailCount(mailbox, email, INVITE);
  const response = await inviter.client.post(`${ORG}/invite-member`, { email, role, organizationId, ...extra });
  expect(response.status, response.text).toBe(200);
  const mail = await nextMail(mailbox, email, INVITE, seen);
  return { invitation: response.body, mail, link: mail.links[0] };
}

describe("invitations", () => {
  it("invites by e-mail with a link of its own, and the invitee joins", async () => {
    const t = await team();
    const invitee = await person();
    await verify(server, invitee);
    const sentAt = Date.now();
    const { invitation, mail, link } = await invite(t.admin, t.org.id, invitee.email.toUpperCase(), "admin");
    const receivedAt = Date.now();
    expect(invitation).toMatchObject({ organizationId: t.org.id, email: invitee.email, role: "admin", status: "pending", inviterId: t.admin.id });
    expect(invitation.id).toMatch(/^[A-Za-z0-9]{32}$/); // ≈190 random bits, not time-ordered
    // 48 hours from the moment the server made it, on its clock (this machine's): exact bounds, not a margin.
    expectLifetime(new Date(invitation.expiresAt).getTime(), 172_800, { sentAt, receivedAt });
    expect(checkMail(mail, server.baseUrl, "48 hours")).toBe(link);
    expect(mail.text).toContain(`Team ${t.org.slug}`);
    expect(mail.text).toContain("as admin");
    // Issue 24: user-written names stay out of the subject, and the body quotes them as names.
    expect(mail.subject).toBe("You are invited to join an organization · Latchkey");
    expect(mail.text).toContain(`“Test User” invited you to join the organization named “Team ${t.org.slug}” as admin.`);
    const url = new URL(link);
    expect(url.pathname).toBe(`/invitations/${invitation.id}`);
    const token = url.searchParams.get("token")!;
    expect(token.length).toBeGreaterThanOrEqual(22);
    // The secret is stored hashed only, and no answer carries it.
    const rows = await query<{ identifier: string }>(server.database, `SELECT "identifier" FROM "verification" WHERE "identifier" LIKE 'invitation:%'`);
    expect(rows.some((r) => r.identifier.includes(token))).toBe(false);
    const listed = await t.owner.client.get(`${ORG}/list-invitations?organizationId=${t.org.id}`);
    expect(listed.body).toEqual([expect.objectContaining({ id: invitation.id, status: "pending" })]);
    expect(listed.text).not.toContain(token);

    const seen = await invitee.client.get(`${ORG}/get-invitation?id=${invitation.id}`);
    expect(seen.body).toMatchObject({ id: invitation.id, organizationName: `Team ${t.org.slug}`, organizationSlug: t.org.slug, inviterEmail: t.admin.email });
    expect((await invitee.client.get(`${ORG}/list-user-invitations`)).body).toEqual([expect.objectContaining({ id: invitation.id, organizationName: `Team ${t.org.slug}` })]);

    const accepted = await invitee.client.post(`${ORG}/accept-invitation`, { invitationId: invitation.id });
    expect(accepted.status).toBe(200);
    expect(accepted.body.invitation).toMatchObject({ id: invitation.id, status: "accepted" });
    expect(accepted.body.member).toMatchObject({ organizationId: t.org.id, userId: invitee.id, role: "admin" });
    expect((await session(invitee)).activeOrganizationId).toBe(t.org.id);
    const again = await invitee.client.post(`${ORG}/accept-invitation`, { invitationId: invitation.id });
    expect(again.body).toEqual({ code: "INVITATION_NOT_FOUND", message: "Invitation not found" });
    expect(await count(server.database, "verification", `"identifier" LIKE 'invitation:%' AND "value" LIKE ?`, [`%${invitation.id}%`])).toBe(0);
  });

  it("keeps invitations to the rules of who may invite whom", async () => {
    const t = await team();
    const address = uniqueEmail("invitee");
    const byMember = await t.member.client.post(`${ORG}/invite-member`, { email: address, role: "member", organizationId: t.org.id });
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION");
    const adminInvitesOwner = await t.admin.client.post(`${ORG}/invite-member`, { email: address, role: "owner", organizationId: t.org.id });
    expect(adminInvitesOwner.status).toBe(403);
    expect(adminInvitesOwner.body).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE", message: "You are not allowed to invite a user with this role" });
    const byOutsider = await t.outsider.client.post(`${ORG}/invite-member`, { email: address, role: "member", organizationId: t.org.id });
    expect(byOutsider.body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    expect((await t.owner.client.post(`${ORG}/invite-member`, { email: address, role: "boss", organizationId: t.org.id })).body.code).toBe("ROLE_NOT_FOUND");
    expect((await t.owner.client.post(`${ORG}/invite-member`, { email: "not-an-email", role: "member", organizationId: t.org.id })).body.code).toBe("VALIDATION_ERROR");
    expect((await t.owner.client.post(`${ORG}/invite-member`, { email: t.member.email, role: "member", organizationId: t.org.id })).body.code).toBe(
      "USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION",
    );
    await expectNoNewMail(mailbox, address, 0, 100);
    await invite(t.owner, t.org.id, address, "owner");
  });

  it("refuses a second invitation of one address unless resent, which renews the secret", async () => {
    const t = await team();
    const address = uniqueEmail("twice");
    const first = await invite(t.owner, t.org.id, address);
    const twice = await t.owner.client.post(`${ORG}/invite-member`, { email: address, role: "member", organizationId: t.org.id });
    expect(twice.body).toEqual({ code: "USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION", message: "User is already invited to this organization" });
    const resent = await invite(t.owner, t.org.id, address, "member", { resend: true });
    expect(resent.invitation.id).toBe(first.invitation.id);
    expect(new URL(resent.link).searchParams.get("token")).not.toBe(new URL(first.link).searchParams.get("token"));
    // The old link's secret no longer proves anything; the new one does.
    const invitee = await person(server);
    await query(server.database, `UPDATE "user" SET "email" = ? WHERE "id" = ?`, [address, invitee.id]);
    await sessionShows(invitee.client, (session) => session?.user?.email === address);
    const oldToken = new URL(first.link).searchParams.get("token");
    const stale = await invitee.client.post(`${ORG}/accept-invitation`, { invitationId: first.invitation.id, token: oldToken });
    expect(stale.body.code).toBe("EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION");
    const fresh = await invitee.client.post(`${ORG}/accept-invitation`, { invitationId: first.invitation.id, token: new URL(resent.link).searchParams.get("token") });
    expect(fresh.status).toBe(200);
    // The secret proved the inbox: the address is now verified.
    expect((await invitee.client.get("/api/auth/get-session")).body.user.emailVerified).toBe(true);
  });

  it("needs the invited, verified address to read, accept or reject", async () => {
    const t = await team();
    const invitee = await person();
    const { invitation } = await invite(t.owner, t.org.id, invitee.email);
    const stranger = t.outsider;
    await verify(server, stranger);
    for (const [method, path] of [
      ["GET", `${ORG}/get-invitation?id=${invitation.id}`],
      ["POST", `${ORG}/accept-invitation`],
      ["POST", `${ORG}/reject-invitation`],
    ] as const) {
      const response = method === "GET" ? await stranger.client.get(path) : await stranger.client.post(path, { invitationId: invitation.id });
      expect(response.status, path).toBe(403);
      expect(response.body.code).toBe("YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION");
    }
    expect((await stranger.client.get(`${ORG}/list-user-invitations`)).body).toEqual([]);
    // Unverified: the invitation is neither listed nor answerable without the link's secret.
    expect((await invitee.client.get(`${ORG}/list-user-invitations`)).body).toEqual([]);
    const unverified = await invitee.client.post(`${ORG}/accept-invitation`, { invitationId: invitation.id });
    expect(unverified.status).toBe(403);
    expect(unverified.body.code).toBe("EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION");
    const wrongToken = await invitee.client.post(`${ORG}/accept-invitation`, { invitationId: invitation.id, token: "x".repeat(43) });
    expect(wrongToken.body.code).toBe("EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION");
    await verify(server, invitee);
    const rejected = await invitee.client.post(`${ORG}/reject-invitation`, { invitationId: invitation.id });
    expect(rejected.body).toMatchObject({ invitation: { status: "rejected" }, member: null });
    expect((await invitee.client.post(`${ORG}/accept-invitation`, { invitationId: invitation.id })).body.code).toBe("INVITATION_NOT_FOUND");
    expect(await count(server.database, "member", `"organizationId" = ? AND "userId" = ?`, [t.org.id, invitee.id])).toBe(0);
  });

  it("accepts an unverified address when AUTH_INVITATION_REQUIRE_VERIFIED_EMAIL=off", async () => {
    const owner = await person(limited);
    const org = await createOrg(owner);
    const invitee = await person(limited);
    const response = await owner.client.post(`${ORG}/invite-member`, { email: invitee.email, role: "member", organizationId: org.id });
    expect(response.status).toBe(200);
    expect((await invitee.client.get(`${ORG}/list-user-invitations`)).body).toHaveLength(1);
    expect((await invitee.client.post(`${ORG}/accept-invitation`, { invitationId: response.body.id })).status).toBe(200);
    // The membership limit (2) is now reached.
    const third = await person(limited);
    const refused = await owner.client.post(`${ORG}/invite-member`, { email: third.email, role: "member", organizationId: org.id });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("ORGANIZATION_MEMBERSHIP_LIMIT_REACHED");
  });

  it("does not move expired or canceled invitations, and cancelling needs the permission", async () => {
    const t = await team();
    const invitee = await person();
    await verify(server, invitee);
    const { invitation } = await invite(t.owner, t.org.id, invitee.email);
    const byMember = await t.member.client.post(`${ORG}/cancel-invitation`, { invitationId: invitation.id });
    expect(byMember.status).toBe(403);
    expect(byMember.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION");
    expect((await t.outsider.client.post(`${ORG}/cancel-invitation`, { invitationId: invitation.id })).body.code).toBe("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION");
    expect((await t.owner.client.post(`${ORG}/cancel-invitation`, { invitationId: "unknown" })).body.code).toBe("INVITATION_NOT_FOUND");
    const canceled = await t.admin.client.post(`${ORG}/cancel-invitation`, { invitationId: invitation.id });
    expect(canceled.body).toMatchObject({ id: invitation.id, status: "canceled" });
    expect((await invitee.client.post(`${ORG}/accept-invitation`, { invitationId: invitation.id })).body.code).toBe("INVITATION_NOT_FOUND");
    expect((await invitee.client.get(`${ORG}/get-invitation?id=${invitation.id}`)).body.code).toBe("INVITATION_NOT_FOUND");

    const second = await invite(t.owner, t.org.id, invitee.email);
    const past = server.database.kind === "sqlite" ? Date.now() - 1000 : new Date(Date.now() - 1000);
    await query(server.database, `UPDATE "invitation" SET "expiresAt" = ? WHERE "id" = ?`, [past, second.invitation.id]);
    expect((await invitee.client.post(`${ORG}/accept-invitation`, { invitationId: second.invitation.id })).body.code).toBe("INVITATION_NOT_FOUND");
    expect((await invitee.client.post(`${ORG}/reject-invitation`, { invitationId: second.invitation.id })).body.code).toBe("INVITATION_NOT_FOUND");
    // An expired invitation does not block a new one.
    await invite(t.owner, t.org.id, invitee.email);
  });

  it("refuses an invitation whose inviter has left", async () => {
    const t = await team();
    const invitee = await person();
    await verify(server, invitee);
    const { invitation } = await invite(t.admin, t.org.id, invitee.email);
    expect((await t.admin.client.post(`${ORG}/leave`, { organizationId: t.org.id })).status).toBe(200);
    const response = await invitee.client.post(`${ORG}/accept-invitation`, { invitationId: invitation.id });
    expect(response.body).toEqual({ code: "INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION", message: "Inviter is no longer a member of the organization" });
    expect((await invitee.client.get(`${ORG}/get-invitation?id=${invitation.id}`)).body.code).toBe("INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION");
    expect(await count(server.database, "invitation", `"id" = ? AND "status" = 'pending'`, [invitation.id])).toBe(1);
  });
});

describe("deleting an organization with pending invitations", () => {
  it("deletes the invitations and their link secrets", async () => {
    const t = await team();
    const { invitation } = await invite(t.owner, t.org.id, uniqueEmail("orphan"));
    const secrets = () => count(server.database, "verification", `"identifier" LIKE 'invitation:%' AND "value" LIKE ?`, [`%${invitation.id}%`]);
    expect(await secrets()).toBe(1);
    expect((await t.owner.client.post(`${ORG}/delete`, { organizationId: t.org.id })).status).toBe(200);
    expect(await count(server.database, "invitation", `"id" = ?`, [invitation.id])).toBe(0);
    expect(await secrets()).toBe(0);
  });
});

describe("invitation races (exactly one winner)", () => {
  it("ten parallel accepts make one member", async () => {
    const t = await team();
    const invitee = await person();
    await verify(server, invitee);
    const { invitation } = await invite(t.owner, t.org.id, invitee.email);
    const results = await Promise.all(Array.from({ length: 10 }, () => invitee.client.post(`${ORG}/accept-invitation`, { invitationId: invitation.id })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) expect(r.body.code).toBe("INVITATION_NOT_FOUND");
    expect(await count(server.database, "member", `"organizationId" = ? AND "userId" = ?`, [t.org.id, invitee.id])).toBe(1);
  });

  it("two invites of one address make one pending invitation", async () => {
    const t = await team();
    const address = uniqueEmail("race");
    const results = await Promise.all([t.owner, t.admin].map((p) => p.client.post(`${ORG}/invite-member`, { email: address, role: "member", organizationId: t.org.id })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body.code).toBe("USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION");
    expect(await count(server.database, "invitation", `"organizationId" = ? AND "email" = ? AND "status" = 'pending'`, [t.org.id, address])).toBe(1);
  });
});

describe("deleting a user account", () => {
  it("is refused while the user is the only owner of an organization with other members, naming it", async () => {
    const t = await team();
    const solo = await createOrg(t.owner);
    const refused = await t.owner.client.post("/api/auth/delete-user", {});
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("YOU_ARE_THE_ONLY_OWNER_OF_AN_ORGANIZATION_WITH_OTHER_MEMBERS");
    expect(refused.body.message).toContain(`"Team ${t.org.slug}"`);
    expect(refused.body.message).not.toContain(solo.slug);
    expect(await count(server.database, "user", `"id" = ?`, [t.owner.id])).toBe(1);

    // Another owner: the account may go; the organization stays, the one only they were in goes with them.
    expect((await t.owner.client.post(`${ORG}/update-member-role`, { memberId: t.adminId, role: "owner", organizationId: t.org.id })).status).toBe(200);
    const deleted = await t.owner.client.post("/api/auth/delete-user", {});
    expect(deleted.body).toEqual({ success: true, message: "User deleted" });
    expect(await count(server.database, "organization", `"id" = ?`, [t.org.id])).toBe(1);
    expect(await count(server.database, "organization", `"id" = ?`, [solo.id])).toBe(0);
    expect(await count(server.database, "member", `"organizationId" = ?`, [t.org.id])).toBe(2);
  });
});

describe("an account created from an invitation link (AUTH_EMAIL_VERIFICATION=required)", () => {
  let strict: TestServer;
  beforeAll(async () => {
    strict = await sharedServer({ env: { AUTH_EMAIL_VERIFICATION: "required", SMTP_URL: mailbox.url } });
  });
  afterAll(async () => {
    await strict?.stop();
  });

  const signUpForm = (client: ApiClient, fields: Record<string, string>) =>
    client.request("POST", "/sign-up", { rawBody: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });

  it("starts verified and signed in when the link's secret is valid for that address, and not otherwise", async () => {
    const owner = new ApiClient(strict.baseUrl);
    const ownerEmail = uniqueEmail("strict-owner");
    await signUp(owner, { email: ownerEmail });
    await query(strict.database, `UPDATE "user" SET "emailVerified" = ? WHERE "email" = ?`, [strict.database.kind === "sqlite" ? 1 : true, ownerEmail]);
    expect((await owner.post("/api/auth/sign-in/email", { email: ownerEmail, password: "correct horse battery staple" })).status).toBe(200);
    const org = (await owner.post(`${ORG}/create`, { name: "Strict", slug: uniqueSlug("strict") })).body;
    const address = uniqueEmail("strict-new");
    const seen = mailCount(mailbox, address, INVITE);
    const invitation = (await owner.post(`${ORG}/invite-member`, { email: address, role: "member", organizationId: org.id })).body;
    const link = new URL((await nextMail(mailbox, address, INVITE, seen)).links[0]);
    const target = link.pathname + link.search;

    // A wrong secret proves nothing: the usual "verify first" path.
    const guesser = new ApiClient(strict.baseUrl);
    const verifySeen = mailCount(mailbox, address, /Verify/);
    const wrong = await signUpForm(guesser, { name: "Guess", email: address, password: "correct horse battery staple", redirectTo: `${link.pathname}?token=${"x".repeat(43)}` });
    expect(wrong.status).toBe(302);
    expect(wrong.headers.get("location")).toContain("/sign-in?verify=1");
    // Its verification mail goes out after the answer: waited for, so a loaded machine's late delivery is not
    // counted below as the newcomer's.
    await nextMail(mailbox, address, /Verify/, verifySeen);
    await query(strict.database, `DELETE FROM "user" WHERE "email" = ?`, [address]);

    const newcomer = new ApiClient(strict.baseUrl);
    const before = mailCount(mailbox, address, /Verify/);
    const created = await signUpForm(newcomer, { name: "New", email: address, password: "correct horse battery staple", redirectTo: target });
    expect(created.status).toBe(302);
    expect(new URL(created.headers.get("location")!, strict.baseUrl).pathname).toBe(link.pathname);
    const me = (await newcomer.get("/api/auth/get-session")).body;
    expect(me.user).toMatchObject({ email: address, emailVerified: true });
    await expectNoNewMail(mailbox, address, mailCount(mailbox, address), 200);
    expect(mailCount(mailbox, address, /Verify/)).toBe(before);
    expect((await newcomer.post(`${ORG}/accept-invitation`, { invitationId: invitation.id })).status).toBe(200);
  });
});
