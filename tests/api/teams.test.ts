// Teams inside organizations (issue 42, ADR 068): every team route, rule 1's permissions, rule 6's names, rule 7's
// limits and pages, and the session's activeTeamId with each change that clears it — on both databases. Better
// Auth's official client, with teams on, drives the main calls. Invitations, the race, events and AUTH_TEAMS=off:
// teams-invitations.test.ts.
import { createAuthClient } from "better-auth/client";
import { organizationClient } from "better-auth/client/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, sessionShows, uniqueEmail } from "../support/client";
import { activeTeamOf, addMember, createOrg, createTeam, ORG, person as teamPerson, setActiveOrg, setting as teamSetting, uniqueSlug, type Person, type Setting } from "../support/teams";
import { browserFetch } from "../support/better-auth";
import { type Mailbox } from "../support/mailbox";
import { sharedMailbox, sharedServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

let server: TestServer;
let limited: TestServer; // AUTH_TEAMS_DEFAULT_TEAM=on, AUTH_TEAM_LIMIT=2, AUTH_TEAM_MEMBER_LIMIT=2
let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await sharedMailbox();
  const base = { AUTH_EMAIL_VERIFICATION: "off", AUTH_INVITATION_REQUIRE_VERIFIED_EMAIL: "off", SMTP_URL: mailbox.url };
  [server, limited] = await Promise.all([
    sharedServer({ env: base }),
    sharedServer({ env: { ...base, AUTH_TEAMS_DEFAULT_TEAM: "on", AUTH_TEAM_LIMIT: "2", AUTH_TEAM_MEMBER_LIMIT: "2" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server, limited].map((s) => s?.stop()));
  await mailbox?.stop();
});

const person = (target: TestServer = server) => teamPerson(target);
const setting = (target: TestServer = server) => teamSetting(target);

describe("Better Auth's organizationClient({ teams }) against this server", () => {
  it("creates, lists, renames, fills, activates, empties and removes teams", async () => {
    const { customFetchImpl, jar } = browserFetch(server);
    const client = createAuthClient({ baseURL: server.baseUrl, fetchOptions: { customFetchImpl }, plugins: [organizationClient({ teams: { enabled: true } })] });
    const email = uniqueEmail("teams-client");
    const signedUp = await client.signUp.email({ name: "Client", email, password: PASSWORD });
    expect(signedUp.error).toBeNull();
    const ownerId = signedUp.data!.user.id;
    const org = await client.organization.create({ name: "Teams Co", slug: uniqueSlug() });
    const organizationId = org.data!.id;
    expect((await client.getSession()).data?.session).toMatchObject({ activeOrganizationId: organizationId, activeTeamId: null });

    const created = await client.organization.createTeam({ name: "  Design  " });
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({ name: "Design", organizationId });
    expect(Object.keys(created.data!).sort()).toEqual(["createdAt", "id", "name", "organizationId", "updatedAt"]);
    const teamId = created.data!.id;
    const second = await client.organization.createTeam({ name: "Build", organizationId });
    expect((await client.organization.listTeams()).data?.map((t) => t.name)).toEqual(["Design", "Build"]);

    const renamed = await client.organization.updateTeam({ teamId, data: { name: "Design Team" } });
    expect(renamed.data).toMatchObject({ id: teamId, name: "Design Team" });

    const colleague = await person();
    await addMember(server, organizationId, colleague, "member");
    const added = await client.organization.addTeamMember({ teamId, userId: colleague.id });
    expect(added.error).toBeNull();
    expect(added.data).toMatchObject({ teamId, userId: colleague.id });
    // Twice: the same row.
    const again = await client.organization.addTeamMember({ teamId, userId: colleague.id });
    expect(again.data?.id).toBe(added.data!.id);
    await client.organization.addTeamMember({ teamId, userId: ownerId });
    expect((await client.organization.listTeamMembers({ query: { teamId } })).data?.map((m) => m.userId)).toEqual([colleague.id, ownerId]);
    expect((await client.organization.listUserTeams()).data?.map((t) => t.id)).toEqual([teamId]);

    const active = await client.organization.setActiveTeam({ teamId });
    expect(active.data).toMatchObject({ id: teamId });
    expect((await client.getSession()).data?.session.activeTeamId).toBe(teamId);
    // Without teamId, list-team-members lists the active team.
    expect((await client.organization.listTeamMembers()).data).toHaveLength(2);

    const removed = await client.organization.removeTeamMember({ teamId, userId: colleague.id });
    expect(removed.data).toEqual({ message: "Team member removed successfully." });
    const full = await client.organization.getFullOrganization({ query: { organizationId } });
    expect((full.data as unknown as { teams: Array<{ id: string }> }).teams.map((t) => t.id)).toEqual([teamId, second.data!.id]);

    // One's own active team may be removed (Better Auth refuses it); it stops being active.
    expect((await client.organization.removeTeam({ teamId })).data).toEqual({ message: "Team removed successfully." });
    expect((await client.getSession()).data?.session.activeTeamId).toBeNull();
    const last = await client.organization.removeTeam({ teamId: second.data!.id });
    expect(last.error).toMatchObject({ status: 400, code: "UNABLE_TO_REMOVE_LAST_TEAM", message: "Unable to remove last team" });
    expect((await client.organization.setActiveTeam({ teamId: null })).data).toBeNull();
    expect(jar.cookies.size).toBeGreaterThan(0);
  });
});

describe("rule 1: who may do what with teams", () => {
  it("needs team: create/update/delete and member: update/delete; members list teams", async () => {
    const t = await setting();
    const team = await createTeam(t.owner, t.org.id, "Core");
    await createTeam(t.admin, t.org.id, "Ops");
    const asMember = async (path: string, body: object) => t.member.client.post(`${ORG}/${path}`, { organizationId: t.org.id, ...body });
    expect((await asMember("create-team", { name: "Nope" })).body).toEqual({
      code: "YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION",
      message: "You are not allowed to create teams in this organization",
    });
    const update = await t.member.client.post(`${ORG}/update-team`, { teamId: team.id, data: { name: "X", organizationId: t.org.id } });
    expect([update.status, update.body.code]).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM"]);
    const remove = await asMember("remove-team", { teamId: team.id });
    expect([remove.status, remove.body.code]).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION"]);
    const add = await asMember("add-team-member", { teamId: team.id, userId: t.member.id });
    expect([add.status, add.body.code, add.body.message]).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER", "You are not allowed to create a new member"]);
    expect((await t.admin.client.post(`${ORG}/add-team-member`, { teamId: team.id, userId: t.member.id, organizationId: t.org.id })).status).toBe(200);
    const removeMember = await asMember("remove-team-member", { teamId: team.id, userId: t.member.id });
    expect([removeMember.status, removeMember.body.code]).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER"]);

    // Only members of the organization join its teams.
    const outsider = await t.owner.client.post(`${ORG}/add-team-member`, { teamId: team.id, userId: t.outsider.id, organizationId: t.org.id });
    expect([outsider.status, outsider.body.code]).toEqual([400, "USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION"]);
    // Any member lists the teams; an outsider does not.
    expect((await t.member.client.get(`${ORG}/list-teams?organizationId=${t.org.id}`)).body.map((x: { name: string }) => x.name)).toEqual(["Core", "Ops"]);
    expect((await t.outsider.client.get(`${ORG}/list-teams?organizationId=${t.org.id}`)).status).toBe(403);

    // A team's members: its members and those with member: update (the admin, not in it); not another member.
    expect((await t.member.client.get(`${ORG}/list-team-members?teamId=${team.id}`)).status).toBe(200);
    expect((await t.admin.client.get(`${ORG}/list-team-members?teamId=${team.id}`)).body).toHaveLength(1);
    const third = await person();
    await addMember(server, t.org.id, third, "member");
    const notIn = await third.client.get(`${ORG}/list-team-members?teamId=${team.id}`);
    expect([notIn.status, notIn.body.code]).toEqual([400, "USER_IS_NOT_A_MEMBER_OF_THE_TEAM"]);
    expect((await t.outsider.client.get(`${ORG}/list-team-members?teamId=${team.id}`)).body.code).toBe("TEAM_NOT_FOUND");

    // Another user's teams need member: update.
    const others = await third.client.get(`${ORG}/list-user-teams?userId=${t.member.id}&organizationId=${t.org.id}`);
    expect([others.status, others.body.code]).toEqual([403, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER"]);
    expect((await t.admin.client.get(`${ORG}/list-user-teams?userId=${t.member.id}&organizationId=${t.org.id}`)).body.map((x: { id: string }) => x.id)).toEqual([team.id]);
  });

  it("counts an organization's own roles: a custom role with team: create makes teams", async () => {
    const t = await setting();
    const role = await t.owner.client.post(`${ORG}/create-role`, { role: "team-lead", permission: { team: ["create"] }, organizationId: t.org.id });
    expect(role.status, role.text).toBe(200);
    await query(server.database, `UPDATE "member" SET "role" = 'member,team-lead' WHERE "userId" = ? AND "organizationId" = ?`, [t.member.id, t.org.id]);
    expect((await t.member.client.post(`${ORG}/create-team`, { name: "Led", organizationId: t.org.id })).status).toBe(200);
    // …and nothing more: renaming needs team: update.
    const led = (await t.member.client.get(`${ORG}/list-teams?organizationId=${t.org.id}`)).body[0];
    expect((await t.member.client.post(`${ORG}/update-team`, { teamId: led.id, data: { name: "Mine", organizationId: t.org.id } })).status).toBe(403);
  });

  it("finds no team of another organization, whatever organizationId says", async () => {
    const a = await setting();
    const b = await setting();
    const theirs = await createTeam(b.owner, b.org.id, "Theirs");
    for (const [path, body] of [
      ["add-team-member", { teamId: theirs.id, userId: a.member.id }],
      ["remove-team-member", { teamId: theirs.id, userId: a.member.id }],
      ["remove-team", { teamId: theirs.id }],
    ] as const) {
      const response = await a.owner.client.post(`${ORG}/${path}`, { ...body, organizationId: a.org.id });
      expect([path, response.status, response.body.code]).toEqual([path, 400, "TEAM_NOT_FOUND"]);
    }
    const update = await a.owner.client.post(`${ORG}/update-team`, { teamId: theirs.id, data: { name: "Mine", organizationId: a.org.id } });
    expect(update.body.code).toBe("TEAM_NOT_FOUND");
    const activate = await a.owner.client.post(`${ORG}/set-active-team`, { teamId: theirs.id });
    expect([activate.status, activate.body.code]).toEqual([400, "TEAM_NOT_FOUND"]);
    expect((await query<{ name: string }>(server.database, `SELECT "name" FROM "team" WHERE "id" = ?`, [theirs.id]))[0].name).toBe("Theirs");
  });
});

describe("rule 6: team names", () => {
  it("are trimmed, 1–100 clean characters, unique in the organization ignoring case", async () => {
    const t = await setting();
    await createTeam(t.owner, t.org.id, "Platform");
    const same = await t.owner.client.post(`${ORG}/create-team`, { name: " PLATFORM ", organizationId: t.org.id });
    expect([same.status, same.body]).toEqual([400, { code: "TEAM_ALREADY_EXISTS", message: "Team already exists" }]);
    for (const name of ["", "   ", "a".repeat(101), "Bad\u0000name", "Line\nbreak"]) {
      const response = await t.owner.client.post(`${ORG}/create-team`, { name, organizationId: t.org.id });
      expect([JSON.stringify(name), response.status]).toEqual([JSON.stringify(name), 400]);
    }
    expect((await createTeam(t.owner, t.org.id, "a".repeat(100))).name).toHaveLength(100);
    const other = await createTeam(t.owner, t.org.id, "Support");
    const clash = await t.owner.client.post(`${ORG}/update-team`, { teamId: other.id, data: { name: "platform", organizationId: t.org.id } });
    expect(clash.body.code).toBe("TEAM_ALREADY_EXISTS");
    // A change of case of its own name is a rename.
    expect((await t.owner.client.post(`${ORG}/update-team`, { teamId: other.id, data: { name: "SUPPORT", organizationId: t.org.id } })).body.name).toBe("SUPPORT");
    // Another organization may use the name.
    const b = await setting();
    expect((await createTeam(b.owner, b.org.id, "Platform")).name).toBe("Platform");
  });
});

describe("rule 7: limits and pages", () => {
  it("counts the default team against AUTH_TEAM_LIMIT and makes it active", async () => {
    const owner = await person(limited);
    const org = await createOrg(owner);
    const teams = (await owner.client.get(`${ORG}/list-teams`)).body;
    expect(teams).toEqual([expect.objectContaining({ name: org.name, organizationId: org.id })]);
    expect(await activeTeamOf(owner)).toBe(teams[0].id);
    expect((await owner.client.get(`${ORG}/list-team-members`)).body.map((m: { userId: string }) => m.userId)).toEqual([owner.id]);
    await createTeam(owner, org.id, "Second");
    const third = await owner.client.post(`${ORG}/create-team`, { name: "Third", organizationId: org.id });
    expect([third.status, third.body]).toEqual([400, { code: "YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS", message: "You have reached the maximum number of teams" }]);
  });

  it("stops adding and inviting at AUTH_TEAM_MEMBER_LIMIT", async () => {
    const t = await setting(limited);
    const teamId = (await t.owner.client.get(`${ORG}/list-teams`)).body[0].id; // the owner is in it
    expect((await t.owner.client.post(`${ORG}/add-team-member`, { teamId, userId: t.admin.id })).status).toBe(200);
    const full = await t.owner.client.post(`${ORG}/add-team-member`, { teamId, userId: t.member.id });
    expect([full.status, full.body]).toEqual([403, { code: "TEAM_MEMBER_LIMIT_REACHED", message: "Team member limit reached" }]);
    const invite = await t.owner.client.post(`${ORG}/invite-member`, { email: uniqueEmail("full"), role: "member", teamId });
    expect([invite.status, invite.body.code]).toEqual([403, "TEAM_MEMBER_LIMIT_REACHED"]);
  });

  it("pages list-teams, list-team-members and list-user-teams by createdAt then id", async () => {
    const t = await setting();
    const made = [];
    for (const name of ["A", "B", "C", "D"]) made.push(await createTeam(t.owner, t.org.id, name));
    const ids = made.map((x) => x.id);
    expect((await t.owner.client.get(`${ORG}/list-teams?limit=2`)).body.map((x: { id: string }) => x.id)).toEqual(ids.slice(0, 2));
    expect((await t.owner.client.get(`${ORG}/list-teams?limit=2&offset=2`)).body.map((x: { id: string }) => x.id)).toEqual(ids.slice(2));
    for (const id of ids) await t.owner.client.post(`${ORG}/add-team-member`, { teamId: id, userId: t.member.id });
    expect((await t.member.client.get(`${ORG}/list-user-teams?offset=1&limit=2`)).body.map((x: { id: string }) => x.id)).toEqual(ids.slice(1, 3));
    for (const who of [t.owner, t.admin]) await t.owner.client.post(`${ORG}/add-team-member`, { teamId: ids[0], userId: who.id });
    expect((await t.owner.client.get(`${ORG}/list-team-members?teamId=${ids[0]}&offset=1`)).body.map((m: { userId: string }) => m.userId)).toEqual([t.owner.id, t.admin.id]);
    for (const [path, param, value] of [
      ["list-teams", "limit", "0"],
      ["list-teams", "limit", "1001"],
      ["list-team-members", "offset", "1000001"],
      ["list-user-teams", "offset", "-1"],
    ]) {
      const response = await t.owner.client.get(`${ORG}/${path}?teamId=${ids[0]}&${param}=${value}`);
      expect([path, param, response.status]).toEqual([path, param, 400]);
      expect(response.body.message).toContain(param);
    }
  });
});

describe("the session's activeTeamId", () => {
  async function activeOn(t: Setting, who: Person) {
    const team = await createTeam(t.owner, t.org.id, `T${Math.random().toString(36).slice(2, 8)}`);
    await t.owner.client.post(`${ORG}/add-team-member`, { teamId: team.id, userId: who.id, organizationId: t.org.id });
    if (who !== t.owner) await setActiveOrg(who, t.org.id);
    expect((await who.client.post(`${ORG}/set-active-team`, { teamId: team.id })).status).toBe(200);
    expect(await activeTeamOf(who)).toBe(team.id);
    return team;
  }

  it("needs the caller in the team of the active organization", async () => {
    const t = await setting();
    const team = await createTeam(t.owner, t.org.id, "Closed");
    const refused = await t.owner.client.post(`${ORG}/set-active-team`, { teamId: team.id });
    expect([refused.status, refused.body]).toEqual([403, { code: "USER_IS_NOT_A_MEMBER_OF_THE_TEAM", message: "User is not a member of the team" }]);
    await setActiveOrg(t.owner, null);
    expect((await t.owner.client.post(`${ORG}/set-active-team`, { teamId: team.id })).body.code).toBe("NO_ACTIVE_ORGANIZATION");
  });

  it("is cleared by switching and unsetting the organization, leaving, removal from the organization or team, and the team's removal", async () => {
    const t = await setting();
    const other = await createOrg(t.owner); // now active
    await setActiveOrg(t.owner, t.org.id);
    await activeOn(t, t.owner);
    // Choosing the same organization again keeps it; switching ends it.
    await setActiveOrg(t.owner, t.org.id);
    expect(await activeTeamOf(t.owner)).not.toBeNull();
    await setActiveOrg(t.owner, other.id);
    expect(await activeTeamOf(t.owner)).toBeNull();
    await setActiveOrg(t.owner, t.org.id);
    await activeOn(t, t.owner);
    await setActiveOrg(t.owner, null);
    expect(await activeTeamOf(t.owner)).toBeNull();
    await setActiveOrg(t.owner, t.org.id);

    const team = await activeOn(t, t.member);
    expect((await t.owner.client.post(`${ORG}/remove-team-member`, { teamId: team.id, userId: t.member.id, organizationId: t.org.id })).status).toBe(200);
    expect(await activeTeamOf(t.member)).toBeNull();

    const removed = await activeOn(t, t.member);
    expect((await t.owner.client.post(`${ORG}/remove-team`, { teamId: removed.id, organizationId: t.org.id })).status).toBe(200);
    expect(await activeTeamOf(t.member)).toBeNull();
    expect(await count(server.database, "teamMember", `"teamId" = ?`, [removed.id])).toBe(0);

    const left = await activeOn(t, t.member);
    expect((await t.member.client.post(`${ORG}/leave`, { organizationId: t.org.id })).status).toBe(200);
    expect(await activeTeamOf(t.member)).toBeNull();
    expect(await count(server.database, "teamMember", `"userId" = ?`, [t.member.id])).toBe(0);
    expect(await count(server.database, "team", `"id" = ?`, [left.id])).toBe(1);

    await activeOn(t, t.admin);
    const memberId = (await t.owner.client.get(`${ORG}/list-members?organizationId=${t.org.id}`)).body.members.find((m: { userId: string }) => m.userId === t.admin.id).id;
    expect((await t.owner.client.post(`${ORG}/remove-member`, { memberIdOrEmail: memberId, organizationId: t.org.id })).status).toBe(200);
    expect(await activeTeamOf(t.admin)).toBeNull();
    expect(await count(server.database, "teamMember", `"userId" = ?`, [t.admin.id])).toBe(0);

    // Deleting the organization deletes its teams and ends the owner's active team.
    await activeOn(t, t.owner);
    expect((await t.owner.client.post(`${ORG}/delete`, { organizationId: t.org.id })).status).toBe(200);
    expect(await activeTeamOf(t.owner)).toBeNull();
    expect(await count(server.database, "team", `"organizationId" = ?`, [t.org.id])).toBe(0);
  });

  it("is seen cleared by a second session of the same person at once", async () => {
    const t = await setting();
    const second = new ApiClient(server.baseUrl);
    expect((await second.post("/api/auth/sign-in/email", { email: t.member.email, password: PASSWORD })).status).toBe(200);
    const team = await createTeam(t.owner, t.org.id, "Shared");
    await t.owner.client.post(`${ORG}/add-team-member`, { teamId: team.id, userId: t.member.id, organizationId: t.org.id });
    await second.post(`${ORG}/set-active`, { organizationId: t.org.id });
    await second.post(`${ORG}/set-active-team`, { teamId: team.id });
    await sessionShows(second, (s) => s?.session?.activeTeamId === team.id);
    await t.owner.client.post(`${ORG}/remove-team-member`, { teamId: team.id, userId: t.member.id, organizationId: t.org.id });
    expect((await second.get("/api/auth/get-session")).body.session.activeTeamId).toBeNull();
  });
});

