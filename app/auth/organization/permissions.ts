// Roles and what they may do: exactly the table of spec §6. A member's role is a comma-separated list of role
// names ("admin,member"); they hold the union of those roles' permissions.
export const ROLES = ["owner", "admin", "member"] as const;
export type Role = (typeof ROLES)[number];

export const RESOURCES = ["organization", "invitation", "member"] as const;
export type Resource = (typeof RESOURCES)[number];

type Statements = { readonly [R in Resource]: readonly string[] };

export const PERMISSIONS: Record<Role, Statements> = {
  owner: { organization: ["update", "delete"], invitation: ["create", "cancel"], member: ["create", "update", "delete"] },
  admin: { organization: ["update"], invitation: ["create", "cancel"], member: ["create", "update", "delete"] },
  member: { organization: [], invitation: [], member: [] },
};

export const OWNER: Role = "owner";

/** "admin, member" → ["admin", "member"]; unknown names are kept so callers can refuse them. */
export function parseRoles(role: string | readonly string[]): string[] {
  const parts = typeof role === "string" ? role.split(",") : role.flatMap((r) => r.split(","));
  return [...new Set(parts.map((r) => r.trim()).filter(Boolean))];
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
