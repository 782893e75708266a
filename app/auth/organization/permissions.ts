// Roles and what they may do. What can be permitted and the built-in roles are code (ADR 015): Better Auth's
// statement and its default roles; the spec's §6 table is these restricted to organization, invitation and member.
// A member's role is a comma-separated list of role names ("admin,member"); they hold the union of those roles'
// permissions. The named rules below are what the domain enforces and what the pages ask to decide which controls
// to show, so no rule is written twice.
export const ROLES = ["owner", "admin", "member"] as const;
export type Role = (typeof ROLES)[number];

/** Better Auth's default statement: every resource and the actions on it, in its order. */
export const STATEMENT = {
  organization: ["update", "delete"],
  member: ["create", "update", "delete"],
  invitation: ["create", "cancel"],
  team: ["create", "update", "delete"],
  ac: ["create", "read", "update", "delete"],
} as const satisfies Record<string, readonly string[]>;

export type Resource = keyof typeof STATEMENT;
export const RESOURCES = Object.keys(STATEMENT) as Resource[];

export type Statements = { readonly [R in Resource]: readonly string[] };

export const PERMISSIONS: Record<Role, Statements> = {
  owner: STATEMENT,
  admin: { ...STATEMENT, organization: ["update"] },
  member: { organization: [], member: [], invitation: [], team: [], ac: ["read"] },
};

export const OWNER: Role = "owner";

/** "admin, member" → ["admin", "member"]; unknown names are kept so callers can refuse them. */
export function parseRoles(role: string | readonly string[]): string[] {
  const parts = typeof role === "string" ? role.split(",") : role.flatMap((r) => r.split(","));
  return [...new Set(parts.map((r) => r.trim()).filter(Boolean))];
}

/** A stored role as people read it: "admin,member" → "admin, member". */
export function describeRole(role: string): string {
  return parseRoles(role).join(", ");
}

export function isKnownRole(role: string): role is Role {
  return (ROLES as readonly string[]).includes(role);
}

export function hasRole(memberRole: string, role: Role): boolean {
  return parseRoles(memberRole).includes(role);
}

export const isOwner = (memberRole: string) => hasRole(memberRole, OWNER);

/**
 * An organization's own roles (issue 42, ADR 069), by name: what each permits. The server reads them fresh from the
 * database for each decision (custom-roles.server.ts): nothing caches them, so a change counts at once everywhere.
 */
export type Permission = Readonly<Record<string, readonly string[]>>;
export type CustomRoles = ReadonlyMap<string, Permission>;
export const NO_CUSTOM_ROLES: CustomRoles = new Map();

/** Whether `resource` is one of the statement's (an own-property check: "toString" is no resource). */
export const isResource = (resource: string): resource is Resource => Object.hasOwn(STATEMENT, resource);

/** What one role name permits: a built-in role's table, a custom role's stored permission, or nothing. */
function permissionOf(role: string, custom: CustomRoles): Permission {
  if (isKnownRole(role)) return PERMISSIONS[role];
  return custom.get(role) ?? {};
}

/** The union of what every role in `memberRole` permits, as "resource:action" strings. */
export function heldPermissions(memberRole: string, custom: CustomRoles = NO_CUSTOM_ROLES): Set<string> {
  const held = new Set<string>();
  for (const role of parseRoles(memberRole)) {
    for (const [resource, actions] of Object.entries(permissionOf(role, custom))) {
      if (!isResource(resource)) continue;
      for (const action of actions) if ((STATEMENT[resource] as readonly string[]).includes(action)) held.add(`${resource}:${action}`);
    }
  }
  return held;
}

/** `{team: ["create"], ac: ["read"]}` → ["team:create", "ac:read"], in the order given. */
export const permissionList = (permission: Permission): string[] =>
  Object.entries(permission).flatMap(([resource, actions]) => actions.map((action) => `${resource}:${action}`));

/**
 * Of `wanted`, what a member with `memberRole` does not hold, as "resource:action" (Better Auth's
 * `missingPermissions`). An action the statement does not have is never held.
 */
export function missingPermissions(memberRole: string, wanted: Permission, custom: CustomRoles = NO_CUSTOM_ROLES): string[] {
  const held = heldPermissions(memberRole, custom);
  return [...new Set(permissionList(wanted))].filter((p) => !held.has(p));
}

/**
 * Whether a member with `memberRole` may do every listed action on every listed resource: the one question
 * has-permission and every route ask. A member holds the union of their roles, custom ones included.
 */
export function roleAllows(memberRole: string, wanted: Permission, custom: CustomRoles = NO_CUSTOM_ROLES): boolean {
  return missingPermissions(memberRole, wanted, custom).length === 0;
}

/**
 * What giving `role` (or handling someone who holds it) asks of the actor: every permission in it, but the
 * built-in `member` role's `ac: read` (rule 3), so that one whose only role is custom may still give or remove
 * a plain member.
 */
function demandedBy(role: string, custom: CustomRoles): Set<string> {
  const demanded = new Set<string>();
  for (const name of parseRoles(role)) {
    if (name === "member") continue;
    for (const p of heldPermissions(name, custom)) demanded.add(p);
  }
  return demanded;
}

/**
 * Rule 3, no escalation by assignment: `role` is given, and a member holding it changed or removed, only by one
 * who holds every permission in it. Generalizes "only an owner handles an owner": an owner holds everything, an
 * admin all but `organization: delete`, so an admin can neither make an owner nor touch one.
 */
export function mayHandleRole(actorRole: string, role: string, custom: CustomRoles = NO_CUSTOM_ROLES): boolean {
  const held = heldPermissions(actorRole, custom);
  return [...demandedBy(role, custom)].every((p) => held.has(p));
}

/** The roles a member with `actorRole` may give (inviting, or changing someone's role): built-in ones, then custom. */
export function grantableRoles(actorRole: string, custom: CustomRoles = NO_CUSTOM_ROLES): string[] {
  return [...ROLES, ...custom.keys()].filter((role) => mayHandleRole(actorRole, role, custom));
}

export const mayUpdateOrganization = (actorRole: string, custom?: CustomRoles) => roleAllows(actorRole, { organization: ["update"] }, custom);
export const mayDeleteOrganization = (actorRole: string, custom?: CustomRoles) => roleAllows(actorRole, { organization: ["delete"] }, custom);
export const mayInvite = (actorRole: string, custom?: CustomRoles) => roleAllows(actorRole, { invitation: ["create"] }, custom);
export const mayCancelInvitations = (actorRole: string, custom?: CustomRoles) => roleAllows(actorRole, { invitation: ["cancel"] }, custom);
export const mayChangeRoles = (actorRole: string, custom?: CustomRoles) => roleAllows(actorRole, { member: ["update"] }, custom);
export const mayRemoveMembers = (actorRole: string, custom?: CustomRoles) => roleAllows(actorRole, { member: ["delete"] }, custom);
export const mayCreateRoles = (actorRole: string, custom?: CustomRoles) => roleAllows(actorRole, { ac: ["create"] }, custom);
export const mayReadRoles = (actorRole: string, custom?: CustomRoles) => roleAllows(actorRole, { ac: ["read"] }, custom);
export const mayUpdateRoles = (actorRole: string, custom?: CustomRoles) => roleAllows(actorRole, { ac: ["update"] }, custom);
export const mayDeleteRoles = (actorRole: string, custom?: CustomRoles) => roleAllows(actorRole, { ac: ["delete"] }, custom);

/**
 * Whether a member may change `targetRole`'s holder's role (to `newRole`, when known): `member: update`, and
 * every permission of both the holder's current roles and the new ones (rule 3). Refusing to demote the last
 * owner is not here: it depends on the other members, counted under the organization's lock.
 */
export function mayChangeRoleOf(actorRole: string, targetRole: string, newRole?: string, custom: CustomRoles = NO_CUSTOM_ROLES): boolean {
  return (
    mayChangeRoles(actorRole, custom) &&
    mayHandleRole(actorRole, targetRole, custom) &&
    (newRole === undefined || mayHandleRole(actorRole, newRole, custom))
  );
}

/**
 * Whether `actor` may remove `target` from the organization: oneself always, anyone else with `member: delete`
 * who holds every permission of the target's roles (rule 3). The only owner's leaving is refused under the lock.
 */
export function mayRemoveMember(
  actor: { id: string; role: string },
  target: { id: string; role: string },
  custom: CustomRoles = NO_CUSTOM_ROLES,
): boolean {
  return actor.id === target.id || (mayRemoveMembers(actor.role, custom) && mayHandleRole(actor.role, target.role, custom));
}

/**
 * Rule 6: a custom role's name, lower-cased as Better Auth does: 1–50 of a-z 0-9 - _, starting with a letter or
 * digit (no comma: a member's role column is comma-separated), never a built-in role's.
 */
export const ROLE_NAME_PATTERN = /^[a-z0-9][a-z0-9_-]{0,49}$/;
export const normalizeRoleName = (name: string) => name.trim().toLowerCase();
export const isValidRoleName = (name: string) => ROLE_NAME_PATTERN.test(name);
export const ROLE_NAME_WORDS = "Use 1 to 50 lower-case letters, digits, dashes or underscores, starting with a letter or digit.";

/** Permissions in English words, by "resource:action" (the pages say them from the catalogs' orgs.permission.*). */
export const PERMISSION_WORDS: Record<string, string> = {
  "organization:update": "Change the organization's name, slug and logo",
  "organization:delete": "Delete the organization",
  "member:create": "Add members",
  "member:update": "Change members' roles and teams",
  "member:delete": "Remove members",
  "invitation:create": "Invite people",
  "invitation:cancel": "Cancel invitations",
  "team:create": "Create teams",
  "team:update": "Rename teams",
  "team:delete": "Delete teams",
  "ac:create": "Create roles",
  "ac:read": "See roles",
  "ac:update": "Change roles",
  "ac:delete": "Delete roles",
};

/** Each resource's heading on the Roles pages. */
export const RESOURCE_WORDS: Record<Resource, string> = {
  organization: "Organization",
  member: "Members",
  invitation: "Invitations",
  team: "Teams",
  ac: "Roles",
};
