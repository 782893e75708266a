// An organization's own roles (issue 42, ADR 069) on both databases, the rules over members: custom roles count at once
// in has-permission and every route; rule 3 (no escalation by assignment), rule 4 (an owner kept), rule 8 (races have
// one winner, under the organization's lock); the events, none holding a secret. The routes: custom-roles.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueEmail, shownText } from "../support/client";
import { type Mailbox } from "../support/mailbox";
import { addMember, createRole, ORG, organization as organizationOn, person as personOn, roleOf } from "../support/roles";
import { sharedMailbox, sharedServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

let server: TestServer;
let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await sharedMailbox();
  server = await sharedServer({ env: { AUTH_EMAIL_VERIFICATION: "off", SMTP_URL: mailbox.url, AUTH_INVITATION_REQUIRE_VERIFIED_EMAIL: "off" } });
});
afterAll(async () => {
  await server?.stop();
  await mailbox?.stop();
});

const person = () => personOn(server);
const organization = () => organizationOn(server);

describe("custom roles count at once, in has-permission and every route", () => {
  it("a member holds the union of their roles; a change to the role counts on the next request", async () => {
    const t = await organization();
    await createRole(t.owner, t.org.id, "inviter", { invitation: ["create"] });
    await t.owner.client.post(`${ORG}/update-member-role`, { memberId: t.memberId, role: "member,inviter", organizationId: t.org.id });
    const ask = (permissions: Record<string, string[]>) => t.member.client.post(`${ORG}/has-permission`, { permissions, organizationId: t.org.id });
    expect((await ask({ invitation: ["create"], ac: ["read"] })).body.success).toBe(true);
    expect((await ask({ invitation: ["cancel"] })).body.success).toBe(false);
    const invited = await t.member.client.post(`${ORG}/invite-member`, { email: uniqueEmail("by-inviter"), role: "member", organizationId: t.org.id });
    expect(invited.status, invited.text).toBe(200);

    await t.owner.client.post(`${ORG}/update-role`, { roleName: "inviter", organizationId: t.org.id, data: { permission: { organization: ["update"] } } });
    expect((await ask({ invitation: ["create"] })).body.success).toBe(false);
    const refused = await t.member.client.post(`${ORG}/invite-member`, { email: uniqueEmail("by-inviter"), role: "member", organizationId: t.org.id });
    expect(refused.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION");
    const renamedOrg = await t.member.client.post(`${ORG}/update`, { data: { name: "Renamed by a custom role" }, organizationId: t.org.id });
    expect(renamedOrg.status, renamedOrg.text).toBe(200);
  });
});

describe("rule 3: no escalation by assignment", () => {
  it("an admin can neither give organization:delete (owner or custom) nor take it for themselves", async () => {
    const t = await organization();
    await createRole(t.owner, t.org.id, "co-owner", { organization: ["update", "delete"], member: ["update"] });
    for (const role of ["owner", "co-owner", ["admin", "co-owner"]]) {
      const invite = await t.admin.client.post(`${ORG}/invite-member`, { email: uniqueEmail("esc"), role, organizationId: t.org.id });
      expect(invite.status, JSON.stringify(role)).toBe(403);
      expect(invite.body).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE", message: "You are not allowed to invite a user with this role" });
      const update = await t.admin.client.post(`${ORG}/update-member-role`, { memberId: t.memberId, role, organizationId: t.org.id });
      expect(update.status).toBe(403);
      expect(update.body).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER", message: "You are not allowed to update this member" });
    }
    const self = await t.admin.client.post(`${ORG}/update-member-role`, { memberId: t.adminId, role: "co-owner", organizationId: t.org.id });
    expect(self.status).toBe(403);
    expect(await roleOf(server, t.adminId)).toBe("admin");
    expect((await t.owner.client.post(`${ORG}/update-member-role`, { memberId: t.memberId, role: "co-owner", organizationId: t.org.id })).status).toBe(200);
    // Nor may the admin change or remove the one who holds it.
    const demote = await t.admin.client.post(`${ORG}/update-member-role`, { memberId: t.memberId, role: "member", organizationId: t.org.id });
    expect(demote.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    const remove = await t.admin.client.post(`${ORG}/remove-member`, { memberIdOrEmail: t.memberId, organizationId: t.org.id });
    expect(remove.status).toBe(403);
    expect(remove.body).toEqual({ code: "YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER", message: "You are not allowed to delete this member" });
  });

  it("a recruiter with member:update neither makes nor demotes an admin, but handles plain members", async () => {
    const t = await organization();
    await createRole(t.owner, t.org.id, "recruiter", { member: ["update", "delete"], invitation: ["create"] });
    const recruiter = await person();
    const recruiterId = await addMember(server, t.org.id, recruiter, "recruiter");
    const makeAdmin = await recruiter.client.post(`${ORG}/update-member-role`, { memberId: t.memberId, role: "admin", organizationId: t.org.id });
    expect(makeAdmin.status).toBe(403);
    expect(makeAdmin.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    const demoteAdmin = await recruiter.client.post(`${ORG}/update-member-role`, { memberId: t.adminId, role: "member", organizationId: t.org.id });
    expect(demoteAdmin.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    const selfAdmin = await recruiter.client.post(`${ORG}/update-member-role`, { memberId: recruiterId, role: "admin", organizationId: t.org.id });
    expect(selfAdmin.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    const inviteAdmin = await recruiter.client.post(`${ORG}/invite-member`, { email: uniqueEmail("rec"), role: "admin", organizationId: t.org.id });
    expect(inviteAdmin.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE");
    const removeAdmin = await recruiter.client.post(`${ORG}/remove-member`, { memberIdOrEmail: t.adminId, organizationId: t.org.id });
    expect(removeAdmin.body.code).toBe("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
    // A plain member (whose ac:read the recruiter need not hold) may be made a recruiter, and removed.
    expect((await recruiter.client.post(`${ORG}/invite-member`, { email: uniqueEmail("rec"), role: "member", organizationId: t.org.id })).status).toBe(200);
    expect((await recruiter.client.post(`${ORG}/update-member-role`, { memberId: t.memberId, role: "recruiter", organizationId: t.org.id })).status).toBe(200);
    expect((await recruiter.client.post(`${ORG}/remove-member`, { memberIdOrEmail: t.memberId, organizationId: t.org.id })).status).toBe(200);
    expect(await roleOf(server, t.adminId)).toBe("admin");
  });

  it("rule 4: the last owner cannot be changed to a custom role", async () => {
    const t = await organization();
    await createRole(t.owner, t.org.id, "everything", {
      organization: ["update", "delete"],
      member: ["create", "update", "delete"],
      invitation: ["create", "cancel"],
      team: ["create", "update", "delete"],
      ac: ["create", "read", "update", "delete"],
    });
    const change = await t.owner.client.post(`${ORG}/update-member-role`, { memberId: t.ownerMemberId, role: "everything", organizationId: t.org.id });
    expect(change.status).toBe(400);
    expect(change.body).toEqual({ code: "YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER", message: "You cannot leave the organization without an owner" });
    expect(await roleOf(server, t.ownerMemberId)).toBe("owner");
  });
});

describe("security events", () => {
  const eventsOf = (userId: string, type: string) =>
    query<{ type: string; details: string; actorUserId: string | null }>(server.database, `SELECT "type", "details", "actorUserId" FROM "securityEvent" WHERE "userId" = ? AND "type" = ?`, [userId, type]);

  it("records each role change on the actor's account and a role given on the member's, none holding a secret", async () => {
    const t = await organization();
    await createRole(t.owner, t.org.id, "planner", { team: ["create", "update"] });
    await t.owner.client.post(`${ORG}/update-role`, { roleName: "planner", organizationId: t.org.id, data: { roleName: "scheduler", permission: { team: ["create"] } } });
    await t.owner.client.post(`${ORG}/update-member-role`, { memberId: t.memberId, role: "scheduler", organizationId: t.org.id });
    await t.owner.client.post(`${ORG}/update-member-role`, { memberId: t.memberId, role: "member", organizationId: t.org.id });
    await t.owner.client.post(`${ORG}/delete-role`, { roleName: "scheduler", organizationId: t.org.id });

    const details = async (type: string, userId = t.owner.id) => (await eventsOf(userId, type)).map((e) => JSON.parse(e.details));
    const base = { organizationId: t.org.id, organizationName: t.org.name };
    expect(await details("organization_role_created")).toEqual([{ ...base, role: "planner", permissions: "team:create,team:update" }]);
    expect(await details("organization_role_updated")).toEqual([{ ...base, role: "scheduler", from: "planner", permissions: "team:create" }]);
    expect(await details("organization_role_deleted")).toEqual([{ ...base, role: "scheduler", permissions: "team:create" }]);
    const changed = await eventsOf(t.member.id, "organization_member_role_changed");
    expect(changed.map((e) => JSON.parse(e.details))).toEqual([
      { ...base, from: "member", to: "scheduler", byOther: true },
      { ...base, from: "scheduler", to: "member", byOther: true },
    ]);
    expect(changed.every((e) => e.actorUserId === t.owner.id)).toBe(true);
    // The member reads it in words, not as the work of an administrator.
    const page = await t.member.client.get("/account/activity");
    expect(shownText(page.text)).toContain(`Your role in “${t.org.name}” changed from “member” to “scheduler” by another member`);
    // (Scripts left out: the page may carry its messages' catalog, whose texts are not what it shows.)
    expect(page.text.replace(/<script[\s\S]*?<\/script>/g, "")).not.toMatch(/by an administrator/);
    const all = await query<{ details: string }>(server.database, `SELECT "details" FROM "securityEvent" WHERE "type" LIKE 'organization_%' AND "userId" IN (?, ?)`, [t.owner.id, t.member.id]);
    for (const row of all) expect(row.details).not.toMatch(/token|secret|password|cookie/i);
  });

  it("deleting the organization deletes its roles", async () => {
    const t = await organization();
    await createRole(t.owner, t.org.id, "temporary", {});
    expect((await t.owner.client.post(`${ORG}/delete`, { organizationId: t.org.id })).status).toBe(200);
    expect(await count(server.database, "organizationRole", `"organizationId" = ?`, [t.org.id])).toBe(0);
  });
});

describe("rule 8: races have one winner", () => {
  it("two creates of one name make one role", async () => {
    for (let round = 0; round < 3; round++) {
      const t = await organization();
      const answers = await Promise.all([t.owner, t.admin].map((p) => createRole(p, t.org.id, "racer", { team: ["create"] })));
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400]);
      expect(answers.find((a) => a.status === 400)!.body.code).toBe("ROLE_NAME_IS_ALREADY_TAKEN");
      expect(await count(server.database, "organizationRole", `"organizationId" = ?`, [t.org.id])).toBe(1);
    }
  });

  it("a role deleted while being given is either given (and the delete refused) or gone (and the giving refused)", async () => {
    for (let round = 0; round < 4; round++) {
      const t = await organization();
      await createRole(t.owner, t.org.id, "fleeting", { team: ["create"] });
      const [give, remove] = await Promise.all([
        t.admin.client.post(`${ORG}/update-member-role`, { memberId: t.memberId, role: "fleeting", organizationId: t.org.id }),
        t.owner.client.post(`${ORG}/delete-role`, { roleName: "fleeting", organizationId: t.org.id }),
      ]);
      const roles = await count(server.database, "organizationRole", `"organizationId" = ? AND "role" = 'fleeting'`, [t.org.id]);
      const role = await roleOf(server, t.memberId);
      if (give.status === 200) {
        expect(remove.body.code).toBe("ROLE_IS_ASSIGNED_TO_MEMBERS");
        expect([roles, role]).toEqual([1, "fleeting"]);
      } else {
        expect(give.body.code).toBe("ROLE_NOT_FOUND");
        expect(remove.body).toEqual({ success: true });
        expect([roles, role]).toEqual([0, "member"]);
      }
    }
  });
});
