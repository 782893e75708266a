// Who may do what in the admin API: Better Auth's admin plugin's statement table and its two roles, unchanged
// (docs/decisions/049-administration.md). A user's role is a comma-separated list; a permission is granted when
// any of its roles grants every action asked for.
export const ADMIN_STATEMENTS = {
  user: ["create", "list", "set-role", "ban", "impersonate", "impersonate-admins", "delete", "set-password", "set-email", "get", "update"],
  session: ["list", "revoke", "delete"],
} as const;

type Resource = keyof typeof ADMIN_STATEMENTS;
export type Permissions = Partial<{ [R in Resource]: ReadonlyArray<(typeof ADMIN_STATEMENTS)[R][number]> }>;

/** The roles that count as admins: shown the console, never impersonated. */
export const ADMIN_ROLES = ["admin"] as const;
export const DEFAULT_ROLE = "user";

const ROLES: Record<string, { [R in Resource]: readonly string[] }> = {
  // Everything but impersonating other admins, as Better Auth's adminAc.
  admin: {
    user: ADMIN_STATEMENTS.user.filter((action) => action !== "impersonate-admins"),
    session: ADMIN_STATEMENTS.session,
  },
  user: { user: [], session: [] },
};

export const KNOWN_ROLES = Object.keys(ROLES);

export function rolesOf(role: string | null | undefined): string[] {
  return (role || DEFAULT_ROLE).split(",").map((r) => r.trim()).filter(Boolean);
}

export function isAdminRole(role: string | null | undefined): boolean {
  return rolesOf(role).some((r) => (ADMIN_ROLES as readonly string[]).includes(r));
}

/** Whether `role` grants every action in `permissions` (unknown resources or actions are never granted). */
export function hasPermission(role: string | null | undefined, permissions: Record<string, readonly string[]>): boolean {
  const asked = Object.entries(permissions);
  if (asked.length === 0) return false;
  return rolesOf(role).some((name) => {
    const grants = Object.hasOwn(ROLES, name) ? ROLES[name] : undefined;
    if (!grants) return false;
    return asked.every(([resource, actions]) => {
      const allowed = Object.hasOwn(grants, resource) ? (grants as Record<string, readonly string[]>)[resource] : undefined;
      return allowed !== undefined && actions.every((action) => allowed.includes(action));
    });
  });
}
