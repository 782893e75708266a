// Members: the caller's own membership, the list, leaving, removing, changing roles and permission checks.
// Every change that depends on who else is an owner runs under the organization's lock (access.server.ts).
import { AuthError } from "~/auth/errors";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { db, type Member, type Prisma, type Transaction } from "~/db.server";
import { env } from "~/env.server";
import { organizationOfMember } from "~/auth/organization/organizations.server";
import { pageArgs, type Page } from "~/auth/schemas";
import {
  countOtherOwners,
  findMember,
  lockOrganization,
  requireMember,
  targetOrganizationId,
  TX_OPTIONS,
  unsetActiveOrganization,
} from "~/auth/organization/access.server";
import { isOwner, mayChangeRoleOf, mayChangeRoles, mayRemoveMember, parseRoles, roleAllows } from "~/auth/organization/permissions";
import { customRolesAmong, roleToGive } from "~/auth/organization/custom-roles.server";
import type { RequestContext } from "~/auth/request-context.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import { MEMBER_ORDER, memberWithUser } from "~/auth/organization/presenters.server";
import { leaveTeamsOf } from "~/auth/teams/team-members.server";

const WITH_USER = { user: { select: { id: true, name: true, email: true, image: true } } } as const;

export async function getActiveMember(current: SessionWithUser) {
  const organizationId = current.session.activeOrganizationId;
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  const member = await db.member.findUnique({ where: { organizationId_userId: { organizationId, userId: current.user.id } }, include: WITH_USER });
  if (!member) throw new AuthError("MEMBER_NOT_FOUND");
  return memberWithUser(member);
}

export async function getActiveMemberRole(current: SessionWithUser, query: { userId?: string; organizationId?: string }) {
  const organizationId = targetOrganizationId(current, query.organizationId);
  const own = await requireMember(db, organizationId, current.user.id);
  if (!query.userId || query.userId === current.user.id) return { role: own.role };
  const other = await findMember(db, organizationId, query.userId);
  if (!other) throw new AuthError("MEMBER_NOT_FOUND");
  return { role: other.role };
}

export const MEMBER_FIELDS = ["id", "userId", "role", "createdAt"] as const;
export type MemberField = (typeof MEMBER_FIELDS)[number];
export const FILTER_OPERATORS = ["eq", "ne", "lt", "lte", "gt", "gte", "contains"] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface ListMembersQuery extends Page {
  organizationId?: string;
  organizationSlug?: string;
  sortBy?: MemberField;
  sortDirection?: "asc" | "desc";
  filterField?: MemberField;
  filterOperator?: FilterOperator;
  filterValue?: string;
}

/** Better Auth's `filterField`/`filterOperator`/`filterValue` as a Prisma condition on one member field. */
function memberFilter(field: MemberField, operator: FilterOperator, raw: string): Prisma.MemberWhereInput {
  const value = field === "createdAt" ? new Date(raw) : raw;
  if (value instanceof Date && Number.isNaN(value.getTime())) throw new AuthError("VALIDATION_ERROR", { message: "[query.filterValue] Invalid date" });
  const condition =
    operator === "eq" ? { equals: value }
    : operator === "ne" ? { not: value }
    : operator === "contains" ? (value instanceof Date ? { equals: value } : { contains: value })
    : { [operator]: value };
  return { [field]: condition };
}

/**
 * One page of an organization's members with their total (Better Auth's list-members): by default the first
 * AUTH_ORGANIZATION_MEMBERSHIP_LIMIT (100) in joining order, which the (organizationId, createdAt, id) index
 * serves without a sort; `sortBy` another field sorts that organization's members (ADR 044).
 */
export async function listMembers(current: SessionWithUser, query: ListMembersQuery) {
  const organizationId = query.organizationSlug && !query.organizationId
    ? (await organizationOfMember(current, { organizationSlug: query.organizationSlug }))!.organization.id
    : targetOrganizationId(current, query.organizationId);
  await requireMember(db, organizationId, current.user.id);
  return pageOfMembers(organizationId, query);
}

/** A page of the members of an organization whose membership the caller has already checked. */
export async function pageOfMembers(organizationId: string, query: Omit<ListMembersQuery, "organizationId" | "organizationSlug">) {
  const where: Prisma.MemberWhereInput = {
    organizationId,
    ...(query.filterField && query.filterValue !== undefined ? memberFilter(query.filterField, query.filterOperator ?? "eq", query.filterValue) : {}),
  };
  const direction = query.sortDirection ?? "asc";
  const orderBy = query.sortBy ? [{ [query.sortBy]: direction }, { id: direction }] : [...MEMBER_ORDER];
  const [members, total] = await Promise.all([
    db.member.findMany({ where, include: WITH_USER, orderBy, ...pageArgs(query, env.AUTH_ORGANIZATION_MEMBERSHIP_LIMIT) }),
    db.member.count({ where }),
  ]);
  return { members: members.map(memberWithUser), total };
}

/** Removes `target` (already read under the lock); the only owner may not go (spec §5). */
async function removeUnderLock(tx: Transaction, target: Member) {
  if (isOwner(target.role) && (await countOtherOwners(tx, target.organizationId, target.id)) === 0) {
    throw new AuthError("YOU_CANNOT_LEAVE_THE_ORGANIZATION_AS_THE_ONLY_OWNER");
  }
  const { count } = await tx.member.deleteMany({ where: { id: target.id } });
  if (count === 0) throw new AuthError("MEMBER_NOT_FOUND");
  // They leave its teams too (issue 42); their sessions lose the organization and its active team.
  await leaveTeamsOf(tx, target.organizationId, target.userId);
  await unsetActiveOrganization(tx, target.userId, target.organizationId);
}

export async function leaveOrganization(current: SessionWithUser, organizationId: string) {
  return db.$transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const member = await tx.member.findUnique({ where: { organizationId_userId: { organizationId, userId: current.user.id } }, include: WITH_USER });
    if (!member) throw new AuthError("MEMBER_NOT_FOUND");
    await removeUnderLock(tx, member);
    return memberWithUser(member);
  }, TX_OPTIONS);
}

/** Removes a member named by id or e-mail: oneself always (but the only owner), others with `member: delete`. */
export async function removeMember(current: SessionWithUser, input: { memberIdOrEmail: string; organizationId?: string }) {
  const organizationId = targetOrganizationId(current, input.organizationId);
  return db.$transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const actor = await requireMember(tx, organizationId, current.user.id);
    const byEmail = input.memberIdOrEmail.includes("@");
    const target = await tx.member.findFirst({
      where: byEmail ? { organizationId, user: { email: input.memberIdOrEmail.trim().toLowerCase() } } : { organizationId, id: input.memberIdOrEmail },
      include: WITH_USER,
    });
    if (!target) throw new AuthError("MEMBER_NOT_FOUND");
    // Rule 3: another member is removed only by one holding every permission of their roles.
    if (!mayRemoveMember(actor, target, await customRolesAmong(tx, organizationId, actor.role, target.role))) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_MEMBER");
    await removeUnderLock(tx, target);
    return { member: memberWithUser(target) };
  }, TX_OPTIONS);
}

/**
 * Changes a member's role, to built-in roles or the organization's own. Needs `member: update` and every
 * permission of the member's current roles and of the new ones (rule 3: an admin makes no owner, a "recruiter"
 * with `member: update` neither makes nor demotes an admin); the last owner cannot be changed to anything else
 * (rule 4). Two owners demoting each other at once: the lock makes them take turns, and the second finds it is
 * no longer an owner. The change is recorded on the member's account, the actor with it.
 */
export async function updateMemberRole(
  current: SessionWithUser,
  input: { memberId: string; role: string | string[]; organizationId?: string },
  ctx?: RequestContext | null,
) {
  if (parseRoles(input.role).length === 0) throw new AuthError("ROLE_NOT_FOUND");
  const organizationId = targetOrganizationId(current, input.organizationId);
  return db.$transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const actor = await requireMember(tx, organizationId, current.user.id);
    if (!mayChangeRoles(actor.role, await customRolesAmong(tx, organizationId, actor.role))) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    const target = await tx.member.findFirst({ where: { id: input.memberId, organizationId } });
    if (!target) throw new AuthError("MEMBER_NOT_FOUND");
    // Read under the lock: a role deleted a moment ago is not given (rule 8).
    const { role } = await roleToGive(tx, organizationId, input.role);
    const custom = await customRolesAmong(tx, organizationId, actor.role, target.role, role);
    if (!mayChangeRoleOf(actor.role, target.role, role, custom)) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
    if (isOwner(target.role) && !isOwner(role) && (await countOtherOwners(tx, organizationId, target.id)) === 0) {
      throw new AuthError("YOU_CANNOT_LEAVE_THE_ORGANIZATION_WITHOUT_AN_OWNER");
    }
    const updated = await tx.member.update({ where: { id: target.id }, data: { role }, include: WITH_USER });
    if (target.role !== role) {
      const organization = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { name: true } });
      await recordSecurityEvent(tx, {
        userId: target.userId,
        type: "organization_member_role_changed",
        // Another member's browser and address are not written on this person's account.
        ctx: target.userId === current.user.id ? ctx : null,
        actorUserId: current.user.id,
        details: { organizationId, organizationName: organization.name, from: target.role, to: role, byOther: target.userId !== current.user.id },
      });
    }
    return memberWithUser(updated);
  }, TX_OPTIONS);
}

export async function hasPermission(current: SessionWithUser, input: { permissions: Record<string, string[]>; organizationId?: string }) {
  const organizationId = targetOrganizationId(current, input.organizationId);
  const member = await requireMember(db, organizationId, current.user.id);
  return { error: null, success: roleAllows(member.role, input.permissions, await customRolesAmong(db, organizationId, member.role)) };
}

