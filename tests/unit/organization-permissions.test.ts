// The permission table of spec §6, role lists, and which roles exist.
import { describe, expect, it } from "vitest";
import { isOwner, parseRoles, PERMISSIONS, roleAllows } from "~/auth/organization/permissions";

describe("the permission table (spec §6)", () => {
  it("is exactly the specification's", () => {
    expect(PERMISSIONS).toEqual({
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
  ] as Array<[string, Record<string, string[]>, boolean]>)("%j may %j: %s", (role, wanted, expected) => {
    expect(roleAllows(role, wanted)).toBe(expected);
  });

  it("reads comma-separated and listed roles", () => {
    expect(parseRoles("admin, member,admin")).toEqual(["admin", "member"]);
    expect(parseRoles(["owner", "admin,member"])).toEqual(["owner", "admin", "member"]);
    expect(isOwner("member,owner")).toBe(true);
    expect(isOwner("owners")).toBe(false);
  });
});
