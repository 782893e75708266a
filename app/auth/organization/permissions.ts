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

/** Whether a member with `memberRole` may do every listed action on every listed resource. */
export function roleAllows(memberRole: string, wanted: Record<string, readonly string[]>): boolean {
  const held = parseRoles(memberRole).filter(isKnownRole);
  return Object.entries(wanted).every(([resource, actions]) =>
    actions.every((action) =>
      held.some((role) => (RESOURCES as readonly string[]).includes(resource) && PERMISSIONS[role][resource as Resource].includes(action)),
    ),
  );
}

/** Only an owner may give the owner role, or change or remove a member who holds it. */
export const mayHandleRole = (actorRole: string, role: string) => !isOwner(role) || isOwner(actorRole);

/** The roles a member with `actorRole` may give (inviting, or changing someone's role). */
export const grantableRoles = (actorRole: string): Role[] => ROLES.filter((role) => mayHandleRole(actorRole, role));

export const mayUpdateOrganization = (actorRole: string) => roleAllows(actorRole, { organization: ["update"] });
export const mayDeleteOrganization = (actorRole: string) => roleAllows(actorRole, { organization: ["delete"] });
export const mayInvite = (actorRole: string) => roleAllows(actorRole, { invitation: ["create"] });
export const mayCancelInvitations = (actorRole: string) => roleAllows(actorRole, { invitation: ["cancel"] });
export const mayChangeRoles = (actorRole: string) => roleAllows(actorRole, { member: ["update"] });
export const mayRemoveMembers = (actorRole: string) => roleAllows(actorRole, { member: ["delete"] });

/**
 * Whether a member may change `targetRole`'s holder's role (to `newRole`, when known). Refusing to demote the
 * last owner is not here: it depends on the other members, counted under the organization's lock.
 */
export function mayChangeRoleOf(actorRole: string, targetRole: string, newRole?: string): boolean {
  return mayChangeRoles(actorRole) && mayHandleRole(actorRole, targetRole) && (newRole === undefined || mayHandleRole(actorRole, newRole));
}

/**
 * Whether `actor` may remove `target` from the organization: oneself always, anyone else with `member: delete`
 * (an owner only by an owner). The only owner's leaving is refused under the organization's lock.
 */
export function mayRemoveMember(actor: { id: string; role: string }, target: { id: string; role: string }): boolean {
  return actor.id === target.id || (mayRemoveMembers(actor.role) && mayHandleRole(actor.role, target.role));
}
