// The permission table of spec §6, role lists, and which roles exist.
import { describe, expect, it } from "vitest";
import {
  grantableRoles,
  isOwner,
  mayCancelInvitations,
  mayChangeRoleOf,
  mayChangeRoles,
  mayDeleteOrganization,
  mayHandleRole,
  mayInvite,
  mayRemoveMember,
  mayRemoveMembers,
  mayUpdateOrganization,
  parseRoles,
  describeRole,
  PERMISSIONS,
  roleAllows,
  STATEMENT,
} from "~/auth/organization/permissions";

describe("the permission table (Better Auth's statement; spec §6)", () => {
  it("is Better Auth's default statement and roles", () => {
    expect(STATEMENT).toEqual({
      organization: ["update", "delete"],
      member: ["create", "update", "delete"],
      invitation: ["create", "cancel"],
      team: ["create", "update", "delete"],
      ac: ["create", "read", "update", "delete"],
    });
    expect(PERMISSIONS).toEqual({
      owner: STATEMENT,
      admin: { ...STATEMENT, organization: ["update"] },
      member: { organization: [], member: [], invitation: [], team: [], ac: ["read"] },
    });
  });

  it("restricted to the specification's three resources, is exactly its table", () => {
    const restricted = Object.fromEntries(
      Object.entries(PERMISSIONS).map(([role, s]) => [role, { organization: s.organization, invitation: s.invitation, member: s.member }]),
    );
    expect(restricted).toEqual({
      owner: { organization: ["update", "delete"], invitation: ["create", "cancel"], member: ["create", "update", "delete"] },
      admin: { organization: ["update"], invitation: ["create", "cancel"], member: ["create", "update", "delete"] },
      member: { organization: [], invitation: [], member: [] },
    });
  });

  it.each([
    ["owner", { organization: ["delete"] }, true],
    ["admin", { organization: ["delete"] }, false],
    ["admin", { organization: ["update"], member: ["delete"] }, true],
    ["member", { organization: ["update"] }, false],
    ["member", {}, true],
    ["admin,member", { invitation: ["cancel"] }, true],
    [" member , owner ", { organization: ["delete"] }, true],
    ["superuser", { organization: ["update"] }, false],
    ["owner", { organization: ["launch"] }, false],
    ["owner", { toString: ["call"] }, false],
    ["owner", { team: ["create", "update", "delete"], ac: ["create", "read", "update", "delete"] }, true],
    ["admin", { team: ["delete"], ac: ["delete"] }, true],
    ["member", { ac: ["read"] }, true],
    ["member", { team: ["create"] }, false],
    ["member", { ac: ["create"] }, false],
  ] as Array<[string, Record<string, string[]>, boolean]>)("%j may %j: %s", (role, wanted, expected) => {
    expect(roleAllows(role, wanted)).toBe(expected);
  });

  it("reads comma-separated and listed roles", () => {
    expect(parseRoles("admin, member,admin")).toEqual(["admin", "member"]);
    expect(parseRoles(["owner", "admin,member"])).toEqual(["owner", "admin", "member"]);
    expect(isOwner("member,owner")).toBe(true);
    expect(isOwner("owners")).toBe(false);
  });

  it("shows a stored role as people read it, whatever its spacing", () => {
    expect(describeRole("member,  owner")).toBe("member, owner");
    expect(describeRole("admin")).toBe("admin");
  });
});

describe("the named rules the domain enforces and the pages show", () => {
  it("lets only an owner give the owner role, or change or remove an owner", () => {
    expect(grantableRoles("owner")).toEqual(["owner", "admin", "member"]);
    expect(grantableRoles("admin")).toEqual(["admin", "member"]);
    expect(grantableRoles("member,admin")).toEqual(["admin", "member"]);
    expect(mayHandleRole("admin", "member, owner")).toBe(false);
    expect(mayHandleRole("admin , owner", "owner")).toBe(true);
  });

  it.each([
    ["owner", "owner", undefined, true],
    ["owner", "member", "owner", true],
    ["admin", "member", undefined, true],
    ["admin", "member", "admin", true],
    ["admin", "member", "owner", false],
    ["admin", "owner", undefined, false],
    // A role written with spaces is still an owner's.
    ["admin", "admin, owner", "admin", false],
    ["member", "member", "member", false],
  ] as Array<[string, string, string | undefined, boolean]>)("%j may change a %j's role (to %j): %s", (actor, target, newRole, expected) => {
    expect(mayChangeRoleOf(actor, target, newRole)).toBe(expected);
  });

  it.each([
    [{ id: "a", role: "member" }, { id: "a", role: "member" }, true],
    [{ id: "a", role: "owner" }, { id: "a", role: "owner" }, true],
    [{ id: "a", role: "member" }, { id: "b", role: "member" }, false],
    [{ id: "a", role: "admin" }, { id: "b", role: "member" }, true],
    [{ id: "a", role: "admin" }, { id: "b", role: "owner" }, false],
    [{ id: "a", role: "admin" }, { id: "b", role: "member, owner" }, false],
    [{ id: "a", role: "owner" }, { id: "b", role: "owner" }, true],
  ])("%j may remove %j: %s", (actor, target, expected) => {
    expect(mayRemoveMember(actor, target)).toBe(expected);
  });

  it("names each organization-wide permission of the table", () => {
    expect([mayUpdateOrganization, mayDeleteOrganization, mayInvite, mayCancelInvitations, mayChangeRoles, mayRemoveMembers].map((rule) => rule("admin"))).toEqual([
      true,
      false,
      true,
      true,
      true,
      true,
    ]);
    expect([mayUpdateOrganization, mayDeleteOrganization, mayInvite, mayCancelInvitations, mayChangeRoles, mayRemoveMembers].map((rule) => rule("member"))).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(mayDeleteOrganization("owner")).toBe(true);
  });
});
