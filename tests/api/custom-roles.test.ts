// An organization's own roles (issue 42, ADR 069) on both databases, the routes: create/list/get/update/delete-role as
// Better Auth's dynamic access control answers them, with its official client driving the main calls; rules 2, 5, 6
// and 7 (no escalation by definition, roles in use and renames, names, limits and pages), AUTH_CUSTOM_ROLES=off.
// The rules over members (3, 4, 8), roles counting at once and the events: custom-roles-rules.test.ts.
import { createAuthClient } from "better-auth/client";
import { organizationClient } from "better-auth/client/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, uniqueEmail } from "../support/client";
import { createRole, ORG, organization as organizationOn, person as personOn, roleOf, uniqueSlug } from "../support/roles";
import { browserFetch } from "../support/better-auth";
import { type Mailbox } from "../support/mailbox";
import { sharedMailbox, sharedServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

let server: TestServer;
let limited: TestServer; // AUTH_ORGANIZATION_ROLE_LIMIT=2
let off: TestServer; // AUTH_CUSTOM_ROLES=off
let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await sharedMailbox();
  const base = { AUTH_EMAIL_VERIFICATION: "off", SMTP_URL: mailbox.url, AUTH_INVITATION_REQUIRE_VERIFIED_EMAIL: "off" };
  [server, limited, off] = await Promise.all([
    sharedServer({ env: base }),
    sharedServer({ env: { ...base, AUTH_ORGANIZATION_ROLE_LIMIT: "2" } }),
    sharedServer({ env: { ...base, AUTH_CUSTOM_ROLES: "off" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server, limited, off].map((s) => s?.stop()));
  await mailbox?.stop();
});

const person = (target: TestServer = server) => personOn(target);
const organization = (target: TestServer = server) => organizationOn(target);

describe("Better Auth's organizationClient({ dynamicAccessControl }) against this server", () => {
  it("creates, lists, reads, updates and deletes a role", async () => {
    const { customFetchImpl } = browserFetch(server);
    const client = createAuthClient({
      baseURL: server.baseUrl,
      fetchOptions: { customFetchImpl },
      plugins: [organizationClient({ dynamicAccessControl: { enabled: true } })],
    });
    const signedUp = await client.signUp.email({ name: "Role Owner", email: uniqueEmail("ba-roles"), password: "correct horse battery staple" });
    expect(signedUp.error).toBeNull();
    const org = await client.organization.create({ name: "Roles Co", slug: uniqueSlug() });
    expect(org.error).toBeNull();
    const organizationId = org.data!.id;

    const created = await client.organization.createRole({ role: "Billing", permission: { invitation: ["create"], team: ["create", "update"] } });
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({
      success: true,
      roleData: { organizationId, role: "billing", permission: { invitation: ["create"], team: ["create", "update"] } },
      statements: { invitation: ["create"], team: ["create", "update"] },
    });
    expect(typeof created.data!.roleData.id).toBe("string");

    const listed = await client.organization.listRoles();
    expect(listed.data?.map((r: { role: string; permission: unknown }) => [r.role, r.permission])).toEqual([["billing", { invitation: ["create"], team: ["create", "update"] }]]);
    const byName = await client.organization.getRole({ query: { roleName: "billing" } });
    expect(byName.data).toMatchObject({ id: created.data!.roleData.id, role: "billing" });
    const byId = await client.organization.getRole({ query: { roleId: created.data!.roleData.id } });
    expect(byId.data).toMatchObject({ role: "billing" });

    const updated = await client.organization.updateRole({ roleName: "billing", data: { permission: { team: ["delete"] }, roleName: "accounts" } });
    expect(updated.error).toBeNull();
    expect(updated.data).toMatchObject({ success: true, roleData: { role: "accounts", permission: { team: ["delete"] } } });

    const missing = await client.organization.getRole({ query: { roleName: "billing" } });
    expect(missing.error).toMatchObject({ status: 400, code: "ROLE_NOT_FOUND", message: "Role not found" });
    const deleted = await client.organization.deleteRole({ roleName: "accounts" });
    expect(deleted.data).toEqual({ success: true });
    expect((await client.organization.listRoles()).data).toEqual([]);
    const asked = await client.organization.hasPermission({ permissions: { ac: ["create", "read", "update", "delete"] } });
    expect(asked.data).toMatchObject({ success: true });
  });
});

describe("create-role: rules 2 and 6", () => {
  it("refuses whoever may not create roles, and non-members, with Better Auth's codes", async () => {
    const t = await organization();
    const byMember = await createRole(t.member, t.org.id, "viewer", { ac: ["read"] });
    expect(byMember.status).toBe(403);
    expect(byMember.body).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE", message: "You are not allowed to create a role" });
    const byOutsider = await createRole(t.outsider, t.org.id, "viewer", { ac: ["read"] });
    expect(byOutsider.status).toBe(403);
    expect(byOutsider.body).toEqual({ code: "YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION", message: "You are not a member of this organization" });
    const nowhere = await createRole(t.owner, "no-such-organization", "viewer", { ac: ["read"] });
    expect(nowhere.status).toBe(403);
    expect(nowhere.body.code).toBe("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    const noActive = await t.outsider.client.post(`${ORG}/create-role`, { role: "viewer", permission: { ac: ["read"] } });
    expect(noActive.status).toBe(400);
    expect(noActive.body).toEqual({ code: "YOU_MUST_BE_IN_AN_ORGANIZATION_TO_CREATE_A_ROLE", message: "You must be in an organization to create a role" });
    expect(await count(server.database, "organizationRole", `"organizationId" = ?`, [t.org.id])).toBe(0);
  });

  it("gives only permissions the caller holds (an admin cannot define organization:delete)", async () => {
    const t = await organization();
    const escalation = await createRole(t.admin, t.org.id, "deputy", { member: ["update"], organization: ["update", "delete"] });
    expect(escalation.status).toBe(403);
    expect(escalation.body).toEqual({
      code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE",
      message: "You are not allowed to create a role",
      missingPermissions: ["organization:delete"],
    });
    const unknownAction = await createRole(t.owner, t.org.id, "launcher", { team: ["create", "launch"] });
    expect(unknownAction.status).toBe(403);
    expect(unknownAction.body.missingPermissions).toEqual(["team:launch"]);
    const unknownResource = await createRole(t.owner, t.org.id, "launcher", { rocket: ["launch"] });
    expect(unknownResource.status).toBe(400);
    expect(unknownResource.body).toEqual({ code: "INVALID_RESOURCE", message: "The provided permission includes an invalid resource" });
    const prototypeKey = await createRole(t.owner, t.org.id, "launcher", { toString: ["call"] });
    expect(prototypeKey.body.code).toBe("INVALID_RESOURCE");
    const allowed = await createRole(t.admin, t.org.id, "deputy", { member: ["update"], organization: ["update"] });
    expect(allowed.status, allowed.text).toBe(200);
  });

  it("lower-cases names, keeps them unique, never a built-in name, and refuses what a role column cannot hold", async () => {
    const t = await organization();
    expect((await createRole(t.owner, t.org.id, "Support_Team-2", {})).body.roleData.role).toBe("support_team-2");
    const again = await createRole(t.owner, t.org.id, "SUPPORT_TEAM-2", {});
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: "ROLE_NAME_IS_ALREADY_TAKEN", message: "That role name is already taken" });
    for (const builtIn of ["owner", "Admin", "MEMBER"]) {
      const taken = await createRole(t.owner, t.org.id, builtIn, {});
      expect(taken.status).toBe(400);
      expect(taken.body.code).toBe("ROLE_NAME_IS_ALREADY_TAKEN");
    }
    for (const bad of ["a,b", "", "-lead", "with space", "x".repeat(51), "ünïcode"]) {
      const refused = await createRole(t.owner, t.org.id, bad, {});
      expect(refused.status, bad).toBe(400);
      expect(refused.body.code).toBe("VALIDATION_ERROR");
      expect(refused.body.message).toContain("[body.role]");
    }
    expect((await createRole(t.owner, t.org.id, "x".repeat(50), {})).status).toBe(200);
    // Another organization may use the same name.
    const other = await organization();
    expect((await createRole(other.owner, other.org.id, "support_team-2", {})).status).toBe(200);
  });

  it("stops at AUTH_ORGANIZATION_ROLE_LIMIT (TOO_MANY_ROLES)", async () => {
    const t = await organization(limited);
    expect((await createRole(t.owner, t.org.id, "one", {})).status).toBe(200);
    expect((await createRole(t.owner, t.org.id, "two", {})).status).toBe(200);
    const third = await createRole(t.owner, t.org.id, "three", {});
    expect(third.status).toBe(400);
    expect(third.body).toEqual({ code: "TOO_MANY_ROLES", message: "This organization has too many roles" });
  });

  it("answers 404 on every role route with AUTH_CUSTOM_ROLES=off, and custom names cannot be given", async () => {
    const t = await organization(off);
    const paths: Array<[string, string, unknown?]> = [
      ["POST", "create-role", { role: "viewer", permission: {}, organizationId: t.org.id }],
      ["GET", `list-roles?organizationId=${t.org.id}`],
      ["GET", `get-role?roleName=viewer&organizationId=${t.org.id}`],
      ["POST", "update-role", { roleName: "viewer", data: {}, organizationId: t.org.id }],
      ["POST", "delete-role", { roleName: "viewer", organizationId: t.org.id }],
    ];
    for (const [method, path, body] of paths) {
      const answer = method === "GET" ? await t.owner.client.get(`${ORG}/${path}`) : await t.owner.client.post(`${ORG}/${path}`, body);
      expect(answer.status, path).toBe(404);
    }
    // As a path without a route: before the body, the query or the session are read.
    const unknown = await t.owner.client.post(`${ORG}/no-such-route`, {});
    const malformed = await t.owner.client.post(`${ORG}/create-role`, { role: 42 });
    expect([malformed.status, malformed.body]).toEqual([404, unknown.body]);
    const signedOut = new ApiClient(off.baseUrl);
    const listed = await signedOut.get(`${ORG}/list-roles?limit=-1`);
    expect([listed.status, listed.body]).toEqual([404, unknown.body]);
    await query(off.database, `INSERT INTO "organizationRole" ("id", "organizationId", "role", "permission", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)`, [
      `r-${Date.now()}`,
      t.org.id,
      "viewer",
      "{}",
      off.database.kind === "sqlite" ? Date.now() : new Date(),
      off.database.kind === "sqlite" ? Date.now() : new Date(),
    ]);
    const given = await t.owner.client.post(`${ORG}/update-member-role`, { memberId: t.memberId, role: "viewer", organizationId: t.org.id });
    expect(given.status).toBe(400);
    expect(given.body.code).toBe("ROLE_NOT_FOUND");
    // No tab leads to the missing page, on the members page or the teams pages.
    const slug = (t.org as { slug?: string }).slug ?? "";
    for (const page of [`/organizations/${slug}`, `/organizations/${slug}/teams`]) {
      const html = await t.owner.client.get(page);
      expect(html.status, page).toBe(200);
      expect(html.text, page).toContain(`href="/organizations/${slug}/teams"`);
      expect(html.text, page).not.toContain(`href="/organizations/${slug}/roles"`);
    }
  });
});

describe("list-roles and get-role", () => {
  it("are for members with ac:read, a page at a time in creation order, each parameter bounded", async () => {
    const t = await organization();
    for (const name of ["r1", "r2", "r3"]) expect((await createRole(t.owner, t.org.id, name, { ac: ["read"] })).status).toBe(200);
    const all = await t.member.client.get(`${ORG}/list-roles?organizationId=${t.org.id}`);
    expect(all.status).toBe(200);
    expect(all.body.map((r: { role: string }) => r.role)).toEqual(["r1", "r2", "r3"]);
    expect(all.body[0]).toMatchObject({ organizationId: t.org.id, permission: { ac: ["read"] } });
    const page = await t.member.client.get(`${ORG}/list-roles?organizationId=${t.org.id}&limit=1&offset=1`);
    expect(page.body.map((r: { role: string }) => r.role)).toEqual(["r2"]);
    const badLimit = await t.member.client.get(`${ORG}/list-roles?organizationId=${t.org.id}&limit=1001`);
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.message).toContain("[query.limit]");
    const badOffset = await t.member.client.get(`${ORG}/list-roles?organizationId=${t.org.id}&offset=1000001`);
    expect(badOffset.status).toBe(400);
    expect(badOffset.body.message).toContain("[query.offset]");
    const outsider = await t.outsider.client.get(`${ORG}/list-roles?organizationId=${t.org.id}`);
    expect(outsider.status).toBe(403);
    expect(outsider.body.code).toBe("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");

    // A member whose only role is custom and lacks ac:read may neither list nor read roles.
    await createRole(t.owner, t.org.id, "blind", { team: ["create"] });
    await query(server.database, `UPDATE "member" SET "role" = 'blind' WHERE "id" = ?`, [t.memberId]);
    const list = await t.member.client.get(`${ORG}/list-roles?organizationId=${t.org.id}`);
    expect(list.status).toBe(403);
    expect(list.body).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_LIST_A_ROLE", message: "You are not allowed to list a role" });
    const read = await t.member.client.get(`${ORG}/get-role?organizationId=${t.org.id}&roleName=r1`);
    expect(read.status).toBe(403);
    expect(read.body).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_READ_A_ROLE", message: "You are not allowed to read a role" });
  });

  it("finds nothing of another organization's, by name or by id", async () => {
    const [a, b] = await Promise.all([organization(), organization()]);
    const theirs = await createRole(b.owner, b.org.id, "secret-role", {});
    for (const q of [`roleName=secret-role`, `roleId=${theirs.body.roleData.id}`, ""]) {
      const answer = await a.owner.client.get(`${ORG}/get-role?organizationId=${a.org.id}&${q}`);
      expect(answer.status, q).toBe(400);
      expect(answer.body).toEqual({ code: "ROLE_NOT_FOUND", message: "Role not found" });
    }
    const given = await a.owner.client.post(`${ORG}/update-member-role`, { memberId: a.memberId, role: "secret-role", organizationId: a.org.id });
    expect(given.body.code).toBe("ROLE_NOT_FOUND");
    const invited = await a.owner.client.post(`${ORG}/invite-member`, { email: uniqueEmail("x"), role: "secret-role", organizationId: a.org.id });
    expect(invited.body.code).toBe("ROLE_NOT_FOUND");
    const updated = await a.owner.client.post(`${ORG}/update-role`, { roleId: theirs.body.roleData.id, organizationId: a.org.id, data: { roleName: "mine" } });
    expect(updated.body.code).toBe("ROLE_NOT_FOUND");
    const deleted = await a.owner.client.post(`${ORG}/delete-role`, { roleId: theirs.body.roleData.id, organizationId: a.org.id });
    expect(deleted.body.code).toBe("ROLE_NOT_FOUND");
    expect(await count(server.database, "organizationRole", `"id" = ? AND "role" = 'secret-role'`, [theirs.body.roleData.id])).toBe(1);
  });
});

describe("update-role and delete-role: rules 2 and 5", () => {
  it("refuses members without ac:update / ac:delete and an admin adding organization:delete", async () => {
    const t = await organization();
    await createRole(t.owner, t.org.id, "helper", { team: ["create"] });
    const byMember = await t.member.client.post(`${ORG}/update-role`, { roleName: "helper", organizationId: t.org.id, data: { permission: {} } });
    expect(byMember.status).toBe(403);
    expect(byMember.body).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_A_ROLE", message: "You are not allowed to update a role" });
    const escalation = await t.admin.client.post(`${ORG}/update-role`, {
      roleName: "helper",
      organizationId: t.org.id,
      data: { permission: { organization: ["delete"], team: ["create"] } },
    });
    expect(escalation.status).toBe(403);
    expect(escalation.body).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_A_ROLE", message: "You are not allowed to update a role", missingPermissions: ["organization:delete"] });
    const badResource = await t.owner.client.post(`${ORG}/update-role`, { roleName: "helper", organizationId: t.org.id, data: { permission: { rocket: ["go"] } } });
    expect(badResource.body.code).toBe("INVALID_RESOURCE");
    const toBuiltIn = await t.owner.client.post(`${ORG}/update-role`, { roleName: "helper", organizationId: t.org.id, data: { roleName: "admin" } });
    expect(toBuiltIn.body.code).toBe("ROLE_NAME_IS_ALREADY_TAKEN");
    await createRole(t.owner, t.org.id, "other", {});
    const toTaken = await t.owner.client.post(`${ORG}/update-role`, { roleName: "helper", organizationId: t.org.id, data: { roleName: "Other" } });
    expect(toTaken.body.code).toBe("ROLE_NAME_IS_ALREADY_TAKEN");
    const builtIn = await t.owner.client.post(`${ORG}/update-role`, { roleName: "admin", organizationId: t.org.id, data: { permission: {} } });
    expect(builtIn.body.code).toBe("ROLE_NOT_FOUND");

    const deleteByMember = await t.member.client.post(`${ORG}/delete-role`, { roleName: "helper", organizationId: t.org.id });
    expect(deleteByMember.status).toBe(403);
    expect(deleteByMember.body).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_A_ROLE", message: "You are not allowed to delete a role" });
    for (const name of ["owner", "admin", "member"]) {
      const predefined = await t.owner.client.post(`${ORG}/delete-role`, { roleName: name, organizationId: t.org.id });
      expect(predefined.status).toBe(400);
      expect(predefined.body).toEqual({ code: "CANNOT_DELETE_A_PRE_DEFINED_ROLE", message: "Cannot delete a pre-defined role" });
    }
    const unknown = await t.owner.client.post(`${ORG}/delete-role`, { roleName: "nobody", organizationId: t.org.id });
    expect(unknown.body.code).toBe("ROLE_NOT_FOUND");
  });

  it("refuses deleting a role a member holds or a pending invitation gives; renaming renames both", async () => {
    const t = await organization();
    await createRole(t.owner, t.org.id, "billing", { invitation: ["create"] });
    expect((await t.owner.client.post(`${ORG}/update-member-role`, { memberId: t.memberId, role: ["member", "billing"], organizationId: t.org.id })).status).toBe(200);
    const held = await t.owner.client.post(`${ORG}/delete-role`, { roleName: "billing", organizationId: t.org.id });
    expect(held.status).toBe(400);
    expect(held.body).toEqual({
      code: "ROLE_IS_ASSIGNED_TO_MEMBERS",
      message: "Cannot delete a role that is assigned to members. Please reassign the members to a different role first",
    });
    const invitee = uniqueEmail("billing");
    const invited = await t.owner.client.post(`${ORG}/invite-member`, { email: invitee, role: "billing", organizationId: t.org.id });
    expect(invited.status, invited.text).toBe(200);

    const renamed = await t.owner.client.post(`${ORG}/update-role`, { roleName: "billing", organizationId: t.org.id, data: { roleName: "finance" } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(await roleOf(server, t.memberId)).toBe("member,finance");
    const invitation = await query<{ role: string }>(server.database, `SELECT "role" FROM "invitation" WHERE "id" = ?`, [invited.body.id]);
    expect(invitation[0].role).toBe("finance");
    // A later role named as the old one gives nobody anything by accident.
    await createRole(t.owner, t.org.id, "billing", { team: ["delete"] });
    expect((await t.member.client.post(`${ORG}/has-permission`, { permissions: { team: ["delete"] }, organizationId: t.org.id })).body.success).toBe(false);

    expect((await t.owner.client.post(`${ORG}/update-member-role`, { memberId: t.memberId, role: "member", organizationId: t.org.id })).status).toBe(200);
    const stillInvited = await t.owner.client.post(`${ORG}/delete-role`, { roleName: "finance", organizationId: t.org.id });
    expect(stillInvited.body.code).toBe("ROLE_IS_ASSIGNED_TO_MEMBERS");
    expect((await t.owner.client.post(`${ORG}/cancel-invitation`, { invitationId: invited.body.id })).status).toBe(200);
    const gone = await t.owner.client.post(`${ORG}/delete-role`, { roleName: "finance", organizationId: t.org.id });
    expect(gone.body).toEqual({ success: true });
    expect(await count(server.database, "organizationRole", `"organizationId" = ? AND "role" = 'finance'`, [t.org.id])).toBe(0);
  });
});
