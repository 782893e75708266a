// Teams inside organizations (issue 42, ADR 068), the rest of the API: invitations naming teams (ids checked, joined
// on accepting, named in the mail and on the invitation's page, the member limit again), an account's deletion,
// rule 8's race at the team member limit (on PostgreSQL it fails with the lock taken out), the events and their
// words, and AUTH_TEAMS=off — on both databases.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, uniqueEmail, shownText } from "../support/client";
import { activeTeamOf, addMember, createOrg, createTeam, ORG, person as teamPerson, setting as teamSetting } from "../support/teams";
import { type Mailbox } from "../support/mailbox";
import { sharedMailbox, sharedServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

let server: TestServer;
let limited: TestServer; // AUTH_TEAMS_DEFAULT_TEAM=on, AUTH_TEAM_LIMIT=2, AUTH_TEAM_MEMBER_LIMIT=2
let off: TestServer; // AUTH_TEAMS=off
let mailbox: Mailbox;

beforeAll(async () => {
  mailbox = await sharedMailbox();
  const base = { AUTH_EMAIL_VERIFICATION: "off", AUTH_INVITATION_REQUIRE_VERIFIED_EMAIL: "off", SMTP_URL: mailbox.url };
  [server, limited, off] = await Promise.all([
    sharedServer({ env: base }),
    sharedServer({ env: { ...base, AUTH_TEAMS_DEFAULT_TEAM: "on", AUTH_TEAM_LIMIT: "2", AUTH_TEAM_MEMBER_LIMIT: "2" } }),
    sharedServer({ env: { ...base, AUTH_TEAMS: "off" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server, limited, off].map((s) => s?.stop()));
  await mailbox?.stop();
});

const person = (target: TestServer = server) => teamPerson(target);
const setting = (target: TestServer = server) => teamSetting(target);

describe("an account's deletion", () => {
  it("takes its team memberships with it", async () => {
    const t = await setting();
    const team = await createTeam(t.owner, t.org.id, "Leavers");
    await t.owner.client.post(`${ORG}/add-team-member`, { teamId: team.id, userId: t.member.id, organizationId: t.org.id });
    expect(await count(server.database, "teamMember", `"userId" = ?`, [t.member.id])).toBe(1);
    const deleted = await t.member.client.post("/api/auth/delete-user", { password: PASSWORD });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await count(server.database, "teamMember", `"userId" = ?`, [t.member.id])).toBe(0);
    expect((await t.owner.client.get(`${ORG}/list-team-members?teamId=${team.id}`)).body).toEqual([]);
  });
});

describe("invitations naming teams", () => {
  it("checks the ids, joins the teams on accepting and names them in the mail", async () => {
    const t = await setting();
    const [one, two] = [await createTeam(t.owner, t.org.id, "Red"), await createTeam(t.owner, t.org.id, "Blue")];
    const invitee = await person();
    const comma = await t.owner.client.post(`${ORG}/invite-member`, { email: invitee.email, role: "member", teamId: `${one.id},${two.id}` });
    expect([comma.status, comma.body]).toEqual([400, { code: "INVALID_TEAM_ID", message: "Team id contains a reserved character" }]);
    const outsiderTeam = await createTeam(t.outsider, (await createOrg(t.outsider)).id, "Theirs");
    const unknown = await t.owner.client.post(`${ORG}/invite-member`, { email: invitee.email, role: "member", teamId: [one.id, outsiderTeam.id], organizationId: t.org.id });
    expect([unknown.status, unknown.body.code]).toEqual([400, "TEAM_NOT_FOUND"]);

    const invited = await t.owner.client.post(`${ORG}/invite-member`, { email: invitee.email, role: "member", teamId: [one.id, two.id], organizationId: t.org.id });
    expect(invited.status, invited.text).toBe(200);
    expect(invited.body.teamId).toBe(`${one.id},${two.id}`);
    const mail = await mailbox.waitFor(invitee.email, /invited to join an organization/);
    expect(mail.text).toContain("“Red”");
    expect(mail.text).toContain("“Blue”");
    const page = await invitee.client.get(`/invitations/${invited.body.id}`);
    // React's markup between the words: "in the teams Red and Blue", each name isolated, listed as the language lists.
    expect(page.text.replace(/<!-- -->|<\/?span>/g, "")).toContain("in the teams <strong><bdi>Red</bdi></strong> and <strong><bdi>Blue</bdi></strong>.");
    // Removing a team takes it out of the pending invitation.
    await t.owner.client.post(`${ORG}/remove-team`, { teamId: two.id, organizationId: t.org.id });
    const accepted = await invitee.client.post(`${ORG}/accept-invitation`, { invitationId: invited.body.id });
    expect(accepted.status, accepted.text).toBe(200);
    expect((await invitee.client.get(`${ORG}/list-user-teams`)).body.map((x: { id: string }) => x.id)).toEqual([one.id]);
    // Exactly one team: it is the session's active team.
    expect(await activeTeamOf(invitee)).toBe(one.id);

    // Without teamId, none (Better Auth #1673); with two, none active.
    const plain = await person();
    const inv2 = await t.owner.client.post(`${ORG}/invite-member`, { email: plain.email, role: "member", organizationId: t.org.id });
    expect(inv2.body.teamId).toBeNull();
    await plain.client.post(`${ORG}/accept-invitation`, { invitationId: inv2.body.id });
    expect((await plain.client.get(`${ORG}/list-user-teams`)).body).toEqual([]);
    expect(await activeTeamOf(plain)).toBeNull();
  });

  it("refuses accepting into a team that filled up since", async () => {
    const t = await setting(limited);
    const teamId = (await t.owner.client.get(`${ORG}/list-teams`)).body[0].id;
    const invitee = await person(limited);
    const invited = await t.owner.client.post(`${ORG}/invite-member`, { email: invitee.email, role: "member", teamId });
    expect(invited.status, invited.text).toBe(200);
    await t.owner.client.post(`${ORG}/add-team-member`, { teamId, userId: t.admin.id });
    const accepted = await invitee.client.post(`${ORG}/accept-invitation`, { invitationId: invited.body.id });
    expect([accepted.status, accepted.body.code]).toEqual([403, "TEAM_MEMBER_LIMIT_REACHED"]);
    expect(await count(limited.database, "member", `"userId" = ?`, [invitee.id])).toBe(0);
  });
});

describe("rule 8: parallel adds stop at the team member limit", () => {
  it("leaves exactly AUTH_TEAM_MEMBER_LIMIT members", async () => {
    const t = await setting(limited);
    const team = await createTeam(t.owner, t.org.id, "Race");
    const people = await Promise.all(Array.from({ length: 5 }, () => person(limited)));
    for (const p of people) await addMember(limited, t.org.id, p, "member");
    const answers = await Promise.all(people.map((p) => t.owner.client.post(`${ORG}/add-team-member`, { teamId: team.id, userId: p.id, organizationId: t.org.id })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 403, 403, 403]);
    expect(await count(limited.database, "teamMember", `"teamId" = ?`, [team.id])).toBe(2);
  });
});

describe("events", () => {
  it("records team changes on the actor's account and membership changes on the affected person's", async () => {
    const t = await setting();
    const team = await createTeam(t.owner, t.org.id, "Audited");
    await t.owner.client.post(`${ORG}/update-team`, { teamId: team.id, data: { name: "Audited Two", organizationId: t.org.id } });
    await t.owner.client.post(`${ORG}/add-team-member`, { teamId: team.id, userId: t.member.id, organizationId: t.org.id });
    await t.owner.client.post(`${ORG}/remove-team-member`, { teamId: team.id, userId: t.member.id, organizationId: t.org.id });
    await createTeam(t.owner, t.org.id, "Keeper");
    await t.owner.client.post(`${ORG}/remove-team`, { teamId: team.id, organizationId: t.org.id });
    const rows = await query<{ userId: string; type: string; actorUserId: string | null; details: string }>(
      server.database,
      `SELECT "userId", "type", "actorUserId", "details" FROM "securityEvent" WHERE "type" LIKE 'team%' AND "userId" IN (?, ?) ORDER BY "createdAt", "id"`,
      [t.owner.id, t.member.id],
    );
    expect(rows.map((r) => [r.type, r.userId === t.owner.id ? "owner" : "member"])).toEqual([
      ["team_created", "owner"],
      ["team_updated", "owner"],
      ["team_member_added", "member"],
      ["team_member_removed", "member"],
      ["team_created", "owner"],
      ["team_removed", "owner"],
    ]);
    const added = rows[2];
    expect(added.actorUserId).toBe(t.owner.id);
    expect(JSON.parse(added.details)).toMatchObject({ organizationId: t.org.id, teamId: team.id, teamName: "Audited Two" });
    for (const row of rows) expect(Object.keys(JSON.parse(row.details)).some((k) => /token|secret|password|hash|code/i.test(k))).toBe(false);
    const activity = await t.member.client.get("/account/activity");
    expect(shownText(activity.text)).toContain("Added to team “Audited Two”");
    // Its row names a fellow member, not an administrator (the page's HTML also carries every message of the site).
    const row = /<li\b(?:(?!<\/li>)[\s\S])*Added to team(?:(?!<\/li>)[\s\S])*<\/li>/.exec(activity.text)?.[0] ?? "";
    expect(row).toContain("by another member");
    expect(row).not.toContain("administrator");
  });
});

describe("AUTH_TEAMS=off", () => {
  it("answers 404 on the team routes and refuses teamId", async () => {
    const owner = await person(off);
    const org = await createOrg(owner);
    for (const [method, path, body] of [
      ["POST", "create-team", { name: "X" }],
      ["GET", "list-teams", null],
      ["POST", "set-active-team", { teamId: null }],
      ["GET", "list-user-teams", null],
    ] as const) {
      const response = method === "GET" ? await owner.client.get(`${ORG}/${path}`) : await owner.client.post(`${ORG}/${path}`, body!);
      expect([path, response.status]).toEqual([path, 404]);
    }
    // As a path without a route: before the body, the query or the session are read.
    const unknown = await owner.client.post(`${ORG}/no-such-route`, {});
    for (const path of ["create-team", "add-team-member", "remove-team"]) {
      const malformed = await owner.client.post(`${ORG}/${path}`, { name: 42, teamId: ["x"] });
      expect([path, malformed.status, malformed.body]).toEqual([path, 404, unknown.body]);
    }
    const signedOut = new ApiClient(off.baseUrl);
    expect((await signedOut.get(`${ORG}/list-teams?limit=-1`)).status).toBe(404);
    expect((await signedOut.get(`${ORG}/list-team-members`)).body).toEqual(unknown.body);
    const invite = await owner.client.post(`${ORG}/invite-member`, { email: uniqueEmail("off"), role: "member", teamId: "t1", organizationId: org.id });
    expect(invite.status).toBe(400);
    expect((await owner.client.get(`${ORG}/get-full-organization`)).body.teams).toBeUndefined();
  });
});
