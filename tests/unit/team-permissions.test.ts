// Rule 1 of issue 42 as the named functions the team routes enforce and the team pages ask.
import { describe, expect, it } from "vitest";
import { mayAddTeamMembers, mayCreateTeams, mayDeleteTeams, mayListTeamMembers, mayListTeamsOf, mayRemoveTeamMembers, mayUpdateTeams } from "~/auth/teams/permissions";

describe("team permissions of the built-in roles", () => {
  it.each([
    ["owner", true],
    ["admin", true],
    ["member", false],
    ["admin,member", true],
    ["nonsense", false],
  ])("%s: team create/update/delete and member update/delete → %s", (role, allowed) => {
    for (const rule of [mayCreateTeams, mayUpdateTeams, mayDeleteTeams, mayAddTeamMembers, mayRemoveTeamMembers]) expect(rule(role)).toBe(allowed);
  });

  it("lists a team's members for its members and for those who may change members", () => {
    expect(mayListTeamMembers("member", true)).toBe(true);
    expect(mayListTeamMembers("member", false)).toBe(false);
    expect(mayListTeamMembers("owner", false)).toBe(true); // Better Auth refuses this (#3693)
    expect(mayListTeamMembers("admin", false)).toBe(true);
  });

  it("lists another member's teams only with member: update", () => {
    expect(mayListTeamsOf({ userId: "u1", role: "member" }, "u1")).toBe(true);
    expect(mayListTeamsOf({ userId: "u1", role: "member" }, "u2")).toBe(false);
    expect(mayListTeamsOf({ userId: "u1", role: "admin" }, "u2")).toBe(true);
  });
});
