// An organization's own roles (issue 42, ADR 069): create, list, read, update (rename) and delete, as Better Auth's
// dynamic access control answers them, with its rules made stricter where it leaves a gap (rules 2, 5, 6, 8). Every
// change runs under the organization's lock (ADR 015), so it takes turns with members' and invitations' changes:
// a role is never deleted while it is being given, and two creates of one name make one role.
import { AuthError } from "~/auth/errors";
import type { RequestContext } from "~/auth/request-context.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import { pageArgs, type Page } from "~/auth/schemas";
import { db, isUniqueViolation, type OrganizationRole, type Prisma, type Transaction } from "~/db.server";
import { env } from "~/env.server";
import { lockOrganization, roleHolds, TX_OPTIONS } from "~/auth/organization/access.server";
import { customRolesOn, parsePermission, requireRoleActor } from "~/auth/organization/custom-roles.server";
import {
  isKnownRole,
  isResource,
  mayCreateRoles,
  mayDeleteRoles,
  mayReadRoles,
  mayUpdateRoles,
  missingPermissions,
  normalizeRoleName,
  parseRoles,
  permissionList,
  type CustomRoles,
  type Permission,
} from "~/auth/organization/permissions";

export function publicRole(row: OrganizationRole) {
  return { id: row.id, organizationId: row.organizationId, role: row.role, permission: parsePermission(row.permission), createdAt: row.createdAt, updatedAt: row.updatedAt };
}
export type PublicRole = ReturnType<typeof publicRole>;

/** AUTH_CUSTOM_ROLES=off: the role routes and pages are not there. */
export function assertCustomRolesOn(): void {
  if (!customRolesOn()) throw new AuthError("NOT_FOUND");
}

/** The organization a role call is about: the one named, else the session's active one. */
function roleOrganizationId(current: SessionWithUser, organizationId: string | undefined, missing: "NO_ACTIVE_ORGANIZATION" | "YOU_MUST_BE_IN_AN_ORGANIZATION_TO_CREATE_A_ROLE") {
  const id = organizationId ?? current.session.activeOrganizationId;
  if (!id) throw new AuthError(missing);
  return id;
}

/** The organization's lock; an organization that does not exist is, to the caller, one they are not in. */
async function lockForRoles(tx: Transaction, organizationId: string) {
  try {
    await lockOrganization(tx, organizationId);
  } catch (error) {
    if (error instanceof AuthError && error.code === "ORGANIZATION_NOT_FOUND") throw new AuthError("YOU_ARE_NOT_A_MEMBER_OF_THIS_ORGANIZATION");
    throw error;
  }
}

/**
 * Rule 2: a role holds only resources of the statement (else 400 INVALID_RESOURCE) and only permissions the caller
 * holds (else 403 with Better Auth's `missingPermissions`; an action the statement lacks is one nobody holds).
 * Returns the permission as stored: each resource's actions without repeats.
 */
function checkDefinition(actorRole: string, custom: CustomRoles, permission: Permission, refusal: "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE" | "YOU_ARE_NOT_ALLOWED_TO_UPDATE_A_ROLE"): Permission {
  if (Object.keys(permission).some((resource) => !isResource(resource))) throw new AuthError("INVALID_RESOURCE");
  const missing = missingPermissions(actorRole, permission, custom);
  if (missing.length) throw new AuthError(refusal, { extra: { missingPermissions: missing } });
  return Object.fromEntries(Object.entries(permission).map(([resource, actions]) => [resource, [...new Set(actions)]]));
}

/** The event's flat details: the permissions as "team:create,team:update". */
const eventDetails = (organization: { id: string; name: string }, role: string, permission: Permission) => ({
  organizationId: organization.id,
  organizationName: organization.name,
  role,
  permissions: permissionList(permission).join(","),
});

const organizationOf = (tx: Transaction, id: string) => tx.organization.findUniqueOrThrow({ where: { id }, select: { id: true, name: true } });

export async function createRole(
  current: SessionWithUser,
  input: { role: string; permission: Permission; organizationId?: string },
  ctx?: RequestContext | null,
) {
  assertCustomRolesOn();
  const organizationId = roleOrganizationId(current, input.organizationId, "YOU_MUST_BE_IN_AN_ORGANIZATION_TO_CREATE_A_ROLE");
  const role = normalizeRoleName(input.role);
  if (isKnownRole(role)) throw new AuthError("ROLE_NAME_IS_ALREADY_TAKEN");
  try {
    return await db.$transaction(async (tx) => {
      await lockForRoles(tx, organizationId);
      const { member, custom } = await requireRoleActor(tx, organizationId, current.user.id);
      if (!mayCreateRoles(member.role, custom)) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE");
      if ((await tx.organizationRole.count({ where: { organizationId } })) >= env.AUTH_ORGANIZATION_ROLE_LIMIT) throw new AuthError("TOO_MANY_ROLES");
      const permission = checkDefinition(member.role, custom, input.permission, "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_ROLE");
      if (await tx.organizationRole.count({ where: { organizationId, role } })) throw new AuthError("ROLE_NAME_IS_ALREADY_TAKEN");
      const row = await tx.organizationRole.create({ data: { organizationId, role, permission: JSON.stringify(permission) } });
      await recordSecurityEvent(tx, { userId: current.user.id, type: "organization_role_created", ctx, details: eventDetails(await organizationOf(tx, organizationId), role, permission) });
      const { updatedAt: _, ...roleData } = publicRole(row);
      return { success: true as const, roleData, statements: permission };
    }, TX_OPTIONS);
  } catch (error) {
    // Two creates of one name at once: the unique (organizationId, role) index lets one through.
    if (isUniqueViolation(error)) throw new AuthError("ROLE_NAME_IS_ALREADY_TAKEN");
    throw error;
  }
}

/** The role named by name (lower-cased) or id, in this organization only. */
function roleWhere(organizationId: string, by: { roleName?: string; roleId?: string }): Prisma.OrganizationRoleWhereInput {
  if (by.roleName) return { organizationId, role: normalizeRoleName(by.roleName) };
  if (by.roleId) return { organizationId, id: by.roleId };
  throw new AuthError("ROLE_NOT_FOUND");
}

/** A page of the organization's roles, oldest first (100 without `limit`), through its (organizationId, createdAt, id) index. */
export async function listRoles(current: SessionWithUser, query: Page & { organizationId?: string }) {
  assertCustomRolesOn();
  const organizationId = roleOrganizationId(current, query.organizationId, "NO_ACTIVE_ORGANIZATION");
  const { member, custom } = await requireRoleActor(db, organizationId, current.user.id);
  if (!mayReadRoles(member.role, custom)) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_LIST_A_ROLE");
  const rows = await db.organizationRole.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], ...pageArgs(query) });
  return rows.map(publicRole);
}

export async function getRole(current: SessionWithUser, query: { roleName?: string; roleId?: string; organizationId?: string }) {
  assertCustomRolesOn();
  const organizationId = roleOrganizationId(current, query.organizationId, "NO_ACTIVE_ORGANIZATION");
  const { member, custom } = await requireRoleActor(db, organizationId, current.user.id);
  if (!mayReadRoles(member.role, custom)) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_READ_A_ROLE");
  const row = await db.organizationRole.findFirst({ where: roleWhere(organizationId, query) });
  if (!row) throw new AuthError("ROLE_NOT_FOUND");
  return publicRole(row);
}

/** `old` replaced by `renamed` in a comma-separated role, the other names kept in their order. */
export const renameInRole = (role: string, old: string, renamed: string) => [...new Set(parseRoles(role).map((name) => (name === old ? renamed : name)))].join(",");

/**
 * Rule 5: a rename renames the role for its holders and its pending invitations in the same transaction (Better
 * Auth leaves them a name no role has, which a later role of that name would fill).
 */
async function renameHolders(tx: Transaction, organizationId: string, old: string, renamed: string) {
  const holders = await tx.member.findMany({ where: { organizationId, ...roleHolds(old) }, select: { id: true, role: true } });
  for (const holder of holders) await tx.member.update({ where: { id: holder.id }, data: { role: renameInRole(holder.role, old, renamed) } });
  const invitations = await tx.invitation.findMany({ where: { organizationId, status: "pending", ...invitationRoleHolds(old) }, select: { id: true, role: true } });
  for (const invitation of invitations) await tx.invitation.update({ where: { id: invitation.id }, data: { role: renameInRole(invitation.role, old, renamed) } });
}

/** `roleHolds` for an invitation's role column (the same four comma shapes). */
function invitationRoleHolds(role: string): Prisma.InvitationWhereInput {
  return { OR: [{ role }, { role: { startsWith: `${role},` } }, { role: { endsWith: `,${role}` } }, { role: { contains: `,${role},` } }] };
}

export async function updateRole(
  current: SessionWithUser,
  input: { roleName?: string; roleId?: string; organizationId?: string; data: { permission?: Permission; roleName?: string } },
  ctx?: RequestContext | null,
) {
  assertCustomRolesOn();
  const organizationId = roleOrganizationId(current, input.organizationId, "NO_ACTIVE_ORGANIZATION");
  try {
    return await db.$transaction(async (tx) => {
      await lockForRoles(tx, organizationId);
      const { member, custom } = await requireRoleActor(tx, organizationId, current.user.id);
      if (!mayUpdateRoles(member.role, custom)) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_UPDATE_A_ROLE");
      const row = await tx.organizationRole.findFirst({ where: roleWhere(organizationId, input) });
      if (!row) throw new AuthError("ROLE_NOT_FOUND");
      const permission = input.data.permission ? checkDefinition(member.role, custom, input.data.permission, "YOU_ARE_NOT_ALLOWED_TO_UPDATE_A_ROLE") : parsePermission(row.permission);
      const renamed = input.data.roleName === undefined ? row.role : normalizeRoleName(input.data.roleName);
      if (renamed !== row.role) {
        if (isKnownRole(renamed) || (await tx.organizationRole.count({ where: { organizationId, role: renamed } }))) throw new AuthError("ROLE_NAME_IS_ALREADY_TAKEN");
        await renameHolders(tx, organizationId, row.role, renamed);
      }
      const updated = await tx.organizationRole.update({ where: { id: row.id }, data: { role: renamed, permission: JSON.stringify(permission) } });
      await recordSecurityEvent(tx, {
        userId: current.user.id,
        type: "organization_role_updated",
        ctx,
        details: { ...eventDetails(await organizationOf(tx, organizationId), renamed, permission), ...(renamed !== row.role ? { from: row.role } : {}) },
      });
      return { success: true as const, roleData: publicRole(updated) };
    }, TX_OPTIONS);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("ROLE_NAME_IS_ALREADY_TAKEN");
    throw error;
  }
}

/** How many members hold `role` and how many live invitations give it: rule 5's "in use". */
export async function holdersOf(client: Transaction | typeof db, organizationId: string, role: string) {
  const [members, invitations] = await Promise.all([
    client.member.count({ where: { organizationId, ...roleHolds(role) } }),
    client.invitation.count({ where: { organizationId, status: "pending", expiresAt: { gt: new Date() }, ...invitationRoleHolds(role) } }),
  ]);
  return { members, invitations };
}

export async function deleteRole(current: SessionWithUser, input: { roleName?: string; roleId?: string; organizationId?: string }, ctx?: RequestContext | null) {
  assertCustomRolesOn();
  const organizationId = roleOrganizationId(current, input.organizationId, "NO_ACTIVE_ORGANIZATION");
  return db.$transaction(async (tx) => {
    await lockForRoles(tx, organizationId);
    const { member, custom } = await requireRoleActor(tx, organizationId, current.user.id);
    if (!mayDeleteRoles(member.role, custom)) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_DELETE_A_ROLE");
    if (input.roleName && isKnownRole(normalizeRoleName(input.roleName))) throw new AuthError("CANNOT_DELETE_A_PRE_DEFINED_ROLE");
    const row = await tx.organizationRole.findFirst({ where: roleWhere(organizationId, input) });
    if (!row) throw new AuthError("ROLE_NOT_FOUND");
    // Counted under the lock that giving a role also takes (rule 8): given first, this refuses; deleted first, giving refuses.
    const inUse = await holdersOf(tx, organizationId, row.role);
    if (inUse.members + inUse.invitations > 0) throw new AuthError("ROLE_IS_ASSIGNED_TO_MEMBERS");
    await tx.organizationRole.delete({ where: { id: row.id } });
    await recordSecurityEvent(tx, {
      userId: current.user.id,
      type: "organization_role_deleted",
      ctx,
      details: eventDetails(await organizationOf(tx, organizationId), row.role, parsePermission(row.permission)),
    });
    return { success: true as const };
  }, TX_OPTIONS);
}
