// roleAllows and the rules over an organization's own roles (issue 42, ADR 069): a member holds the union of their
// roles, custom ones included; rule 2's missing permissions; rule 3's "holds every permission of it"; rule 6's names.
import { describe, expect, it } from "vitest";
import {
  grantableRoles,
  heldPermissions,
  isValidRoleName,
  mayChangeRoleOf,
  mayCreateRoles,
  mayHandleRole,
  mayReadRoles,
  mayRemoveMember,
  missingPermissions,
  normalizeRoleName,
  PERMISSION_WORDS,
  permissionList,
  roleAllows,
  STATEMENT,
  type CustomRoles,
  type Permission,
} from "~/auth/organization/permissions";
import { renameInRole } from "~/auth/organization/roles.server";
import { permissionFromForm } from "~/auth/organization/role-view.server";

const custom: CustomRoles = new Map<string, Permission>([
  ["recruiter", { member: ["update", "delete"], invitation: ["create"] }],
  ["co-owner", { organization: ["update", "delete"], member: ["update"] }],
  ["viewer", { ac: ["read"] }],
  ["odd", { rocket: ["launch"], team: ["create", "fly"] }],
]);

describe("roleAllows with custom roles", () => {
  it.each([
    ["recruiter", { member: ["update"] }, true],
    ["recruiter", { member: ["create"] }, false],
    ["recruiter", { ac: ["read"] }, false],
    ["member,recruiter", { ac: ["read"], invitation: ["create"] }, true],
    ["viewer", { ac: ["read"] }, true],
    // Stored resources or actions the statement lacks permit nothing.
    ["odd", { rocket: ["launch"] }, false],
    ["odd", { team: ["fly"] }, false],
    ["odd", { team: ["create"] }, true],
    // A name the organization does not have permits nothing.
    ["ghost", {}, true],
    ["ghost", { ac: ["read"] }, false],
  ] as Array<[string, Record<string, string[]>, boolean]>)("%j may %j: %s", (role, wanted, expected) => {
    expect(roleAllows(role, wanted, custom)).toBe(expected);
  });

  it("reads nothing custom without the organization's roles", () => {
    expect(roleAllows("recruiter", { member: ["update"] })).toBe(false);
  });

  it("names what is missing as Better Auth does", () => {
    expect(missingPermissions("admin", { organization: ["update", "delete"], team: ["launch"] })).toEqual(["organization:delete", "team:launch"]);
    expect(missingPermissions("owner", { ac: ["create", "create"] })).toEqual([]);
    expect(heldPermissions("viewer,recruiter", custom)).toEqual(new Set(["ac:read", "member:update", "member:delete", "invitation:create"]));
    expect(permissionList({ team: ["create", "update"] })).toEqual(["team:create", "team:update"]);
  });

  it("asks for ac permissions to handle roles", () => {
    expect([mayCreateRoles("admin"), mayCreateRoles("member"), mayReadRoles("member"), mayReadRoles("recruiter", custom)]).toEqual([true, false, true, false]);
  });
});

describe("rule 3: no escalation by assignment", () => {
  it("gives a role only to one who holds all of it, the member role's ac:read excepted", () => {
    expect(mayHandleRole("admin", "co-owner", custom)).toBe(false);
    expect(mayHandleRole("owner", "co-owner", custom)).toBe(true);
    expect(mayHandleRole("recruiter", "member", custom)).toBe(true);
    expect(mayHandleRole("recruiter", "viewer", custom)).toBe(false);
    expect(mayHandleRole("recruiter", "admin", custom)).toBe(false);
    expect(grantableRoles("admin", custom)).toEqual(["admin", "member", "recruiter", "viewer", "odd"]);
    expect(grantableRoles("recruiter", custom)).toEqual(["member", "recruiter"]);
  });

  it("changes or removes another member only with every permission of their roles", () => {
    expect(mayChangeRoleOf("recruiter", "admin", "member", custom)).toBe(false);
    expect(mayChangeRoleOf("recruiter", "member", "admin", custom)).toBe(false);
    expect(mayChangeRoleOf("recruiter", "member", "recruiter", custom)).toBe(true);
    expect(mayChangeRoleOf("admin", "co-owner", "member", custom)).toBe(false);
    expect(mayRemoveMember({ id: "a", role: "recruiter" }, { id: "b", role: "admin" }, custom)).toBe(false);
    expect(mayRemoveMember({ id: "a", role: "recruiter" }, { id: "b", role: "member" }, custom)).toBe(true);
    expect(mayRemoveMember({ id: "a", role: "viewer" }, { id: "a", role: "viewer" }, custom)).toBe(true);
  });
});

describe("rule 6: role names", () => {
  it.each([
    ["billing", true],
    ["b", true],
    ["9lives", true],
    ["team_lead-2", true],
    ["x".repeat(50), true],
    ["x".repeat(51), false],
    ["", false],
    ["-lead", false],
    ["_lead", false],
    ["a,b", false],
    ["with space", false],
    ["Billing", false],
  ])("%j is a valid stored name: %s", (name, valid) => {
    expect(isValidRoleName(name)).toBe(valid);
  });

  it("lower-cases as Better Auth does", () => {
    expect(normalizeRoleName(" Billing ")).toBe("billing");
  });

  it("renames one name in a member's role list, keeping the others", () => {
    expect(renameInRole("member,billing", "billing", "finance")).toBe("member,finance");
    expect(renameInRole("billing", "billing", "finance")).toBe("finance");
    expect(renameInRole("finance,billing", "billing", "finance")).toBe("finance");
    expect(renameInRole("admin,billings", "billing", "finance")).toBe("admin,billings");
  });
});

describe("the pages' checkboxes", () => {
  it("word every permission of the statement", () => {
    for (const [resource, actions] of Object.entries(STATEMENT)) for (const action of actions) expect(PERMISSION_WORDS[`${resource}:${action}`]).toBeTruthy();
  });

  it("turn ticked values into a permission", () => {
    expect(permissionFromForm(["team:create", "team:update", "ac:read", "junk"])).toEqual({ team: ["create", "update"], ac: ["read"] });
    expect(permissionFromForm(undefined)).toEqual({});
  });
});

describe("the events in words (/account/activity)", () => {
  it("says what happened to a role and to one's own role", async () => {
    const { describeEvent } = await import("~/auth/security-events/words");
    const org = { organizationId: "o1", organizationName: "Acme" };
    expect(describeEvent("organization_role_created", { ...org, role: "billing", permissions: "team:create,team:update" })).toBe(
      "Role “billing” created in “Acme” (permissions: team:create, team:update)",
    );
    expect(describeEvent("organization_role_updated", { ...org, role: "finance", from: "billing", permissions: "" })).toBe(
      "Role “billing” renamed to “finance” and changed in “Acme” (no permissions)",
    );
    expect(describeEvent("organization_role_deleted", { ...org, role: "finance", permissions: "ac:read" })).toBe("Role “finance” deleted from “Acme”");
    expect(describeEvent("organization_member_role_changed", { ...org, from: "member", to: "admin,billing", byOther: true })).toBe(
      "Your role in “Acme” changed from “member” to “admin, billing” by another member",
    );
  });
});
