// What one member sees of an organization's roles, and may do there (issue 42, ADR 069): the Roles pages' models.
// Each "may" is the rule the domain enforces (permissions.ts), so a control shows only where using it would be
// allowed; the server refuses the rest anyway.
import { isAuthError } from "~/auth/errors";
import { allCustomRoles, customRolesOn, parsePermission } from "~/auth/organization/custom-roles.server";
import { organizationOfMember } from "~/auth/organization/organizations.server";
import {
  heldPermissions,
  mayCreateRoles,
  mayDeleteRoles,
  mayReadRoles,
  mayUpdateRoles,
  normalizeRoleName,
  PERMISSION_WORDS,
  PERMISSIONS,
  permissionList,
  RESOURCE_WORDS,
  RESOURCES,
  ROLES,
  STATEMENT,
  type Permission,
} from "~/auth/organization/permissions";
import { holdersOf } from "~/auth/organization/roles.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { db } from "~/db.server";

/** The organization `slug` for one of its members, or null (no such organization, not a member, custom roles off). */
async function organizationFor(current: SessionWithUser, slug: string) {
  if (!customRolesOn()) return null;
  try {
    return await organizationOfMember(current, { organizationSlug: slug });
  } catch (thrown) {
    // Not a member, or no such organization: the same answer, so no one learns which slugs exist.
    if (isAuthError(thrown)) return null;
    throw thrown;
  }
}

/** The page's organization for one of its members, else null (the page's 404). */
export async function rolesOrganizationId(current: SessionWithUser, slug: string): Promise<string | null> {
  return (await organizationFor(current, slug))?.organization.id ?? null;
}

/**
 * Every permission there is, a group per resource (English words for a reader without the catalogs; pages say them
 * in the reader's language from `resource` and `value`), each marked as held by the viewer or not.
 */
function permissionGroups(held: Set<string>) {
  return RESOURCES.map((resource) => ({
    resource,
    heading: RESOURCE_WORDS[resource],
    permissions: STATEMENT[resource].map((action) => {
      const value = `${resource}:${action}`;
      return { value, label: PERMISSION_WORDS[value] ?? value, held: held.has(value) };
    }),
  }));
}

/** "team:create" strings from the form's checkboxes → `{team: ["create"]}` (an unknown resource stays, to be refused). */
export function permissionFromForm(values: readonly string[] | undefined): Permission {
  const permission: Record<string, string[]> = {};
  for (const value of values ?? []) {
    const [resource, action] = value.split(":");
    if (!resource || !action) continue;
    (permission[resource] ??= []).push(action);
  }
  return permission;
}

export async function rolesView(current: SessionWithUser, slug: string) {
  const found = await organizationFor(current, slug);
  if (!found) return null;
  const { organization, member: me } = found;
  const custom = await allCustomRoles(db, organization.id);
  const held = heldPermissions(me.role, custom);
  const mayRead = mayReadRoles(me.role, custom);
  const rows = mayRead ? await db.organizationRole.findMany({ where: { organizationId: organization.id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] }) : [];
  const customRoles = await Promise.all(
    rows.map(async (row) => ({ name: row.role, permissions: permissionList(parsePermission(row.permission)), holders: (await holdersOf(db, organization.id, row.role)).members })),
  );
  return {
    organization: { id: organization.id, name: organization.name, slug: organization.slug },
    can: { read: mayRead, create: mayCreateRoles(me.role, custom) },
    builtIn: ROLES.map((name) => ({ name, permissions: permissionList(PERMISSIONS[name]) })),
    customRoles,
    groups: permissionGroups(held),
  };
}

export async function roleView(current: SessionWithUser, slug: string, roleName: string) {
  const found = await organizationFor(current, slug);
  if (!found) return null;
  const { organization, member: me } = found;
  const custom = await allCustomRoles(db, organization.id);
  if (!mayReadRoles(me.role, custom)) return null;
  const row = await db.organizationRole.findFirst({ where: { organizationId: organization.id, role: normalizeRoleName(roleName) } });
  if (!row) return null;
  const held = heldPermissions(me.role, custom);
  const permission = parsePermission(row.permission);
  const given = new Set(permissionList(permission));
  const inUse = await holdersOf(db, organization.id, row.role);
  return {
    organization: { id: organization.id, name: organization.name, slug: organization.slug },
    role: { name: row.role, permissions: permissionList(permission) },
    // Saving sends every box; one the viewer does not hold could only be kept by someone who does (rule 2).
    can: { update: mayUpdateRoles(me.role, custom) && [...given].every((p) => held.has(p)), delete: mayDeleteRoles(me.role, custom) },
    inUse,
    groups: permissionGroups(held).map((g) => ({ ...g, permissions: g.permissions.map((p) => ({ ...p, checked: given.has(p.value) })) })),
  };
}
