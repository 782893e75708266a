// Who is in which team (issue 42, docs/decisions/068-teams.md): adding and removing, the lists, the session's
// active team, and the teams an invitation names. Changes run under the organization's lock (ADR 015), so parallel
// adds stop at AUTH_TEAM_MEMBER_LIMIT; the unique (teamId, userId) index makes adding twice give the same row.
import { AuthError } from "~/auth/errors";
import type { RequestContext } from "~/auth/request-context.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import { pageArgs, type Page } from "~/auth/schemas";
import { findMember, lockOrganization, requireMember, targetOrganizationId, TX_OPTIONS } from "~/auth/organization/access.server";
import { customRolesAmong } from "~/auth/organization/custom-roles.server";
import { db, isUniqueViolation, type Team, type Transaction } from "~/db.server";
import { env } from "~/env.server";
import { mayAddTeamMembers, mayListTeamMembers, mayListTeamsOf, mayRemoveTeamMembers } from "~/auth/teams/permissions";
import { assertTeamsOn, clearActiveTeam, publicTeam, publicTeamMember, TEAM_ORDER, teamDetails, teamOf, teamsOn } from "~/auth/teams/teams.server";

type EventCtx = RequestContext | null | undefined;

/** Better Auth answers a team call about someone outside the organization with 400, not the catalogue's 403. */
const notAMember = () => new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION", { status: 400 });

/** Under the organization's lock: refused when the team already has AUTH_TEAM_MEMBER_LIMIT members. */
export async function assertRoomInTeam(tx: Transaction, teamId: string): Promise<void> {
  if (env.AUTH_TEAM_MEMBER_LIMIT > 0 && (await tx.teamMember.count({ where: { teamId } })) >= env.AUTH_TEAM_MEMBER_LIMIT) {
    throw new AuthError("TEAM_MEMBER_LIMIT_REACHED");
  }
}

/** Adds `userId` to `team` under the lock; adding someone already in it answers with their existing row. */
async function joinTeam(tx: Transaction, team: Team, userId: string, orgName: string, actor: { userId: string; ctx?: EventCtx }) {
  const existing = await tx.teamMember.findUnique({ where: { teamId_userId: { teamId: team.id, userId } } });
  if (existing) return existing;
  await assertRoomInTeam(tx, team.id);
  const created = await tx.teamMember.create({ data: { teamId: team.id, userId } });
  await recordSecurityEvent(tx, {
    userId,
    type: "team_member_added",
    ctx: actor.userId === userId ? actor.ctx : null,
    actorUserId: actor.userId,
    details: { ...teamDetails(team, orgName), byOther: actor.userId !== userId },
  });
  return created;
}

const orgName = async (tx: Transaction, organizationId: string) =>
  (await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { name: true } })).name;

export async function addTeamMember(current: SessionWithUser, input: { teamId: string; userId: string; organizationId?: string }, ctx?: EventCtx) {
  assertTeamsOn();
  const organizationId = targetOrganizationId(current, input.organizationId);
  try {
    const member = await db.$transaction(async (tx) => {
      await lockOrganization(tx, organizationId);
      const actor = await findMember(tx, organizationId, current.user.id);
      if (!actor) throw notAMember();
      if (!mayAddTeamMembers(actor.role, await customRolesAmong(tx, organizationId, actor.role))) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER");
      // Only members of the organization join its teams.
      if (!(await findMember(tx, organizationId, input.userId))) throw notAMember();
      const team = await teamOf(tx, organizationId, input.teamId);
      return joinTeam(tx, team, input.userId, await orgName(tx, organizationId), { userId: current.user.id, ctx });
    }, TX_OPTIONS);
    return publicTeamMember(member);
  } catch (error) {
    // Two adds of one person at once on SQLite's second process: the row is there; answer with it.
    if (!isUniqueViolation(error)) throw error;
    return publicTeamMember(await db.teamMember.findUniqueOrThrow({ where: { teamId_userId: { teamId: input.teamId, userId: input.userId } } }));
  }
}

export async function removeTeamMember(current: SessionWithUser, input: { teamId: string; userId: string; organizationId?: string }, ctx?: EventCtx) {
  assertTeamsOn();
  const organizationId = targetOrganizationId(current, input.organizationId);
  await db.$transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const actor = await findMember(tx, organizationId, current.user.id);
    if (!actor) throw notAMember();
    if (!mayRemoveTeamMembers(actor.role, await customRolesAmong(tx, organizationId, actor.role))) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER");
    if (!(await findMember(tx, organizationId, input.userId))) throw notAMember();
    const team = await teamOf(tx, organizationId, input.teamId);
    const { count } = await tx.teamMember.deleteMany({ where: { teamId: team.id, userId: input.userId } });
    if (count === 0) throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_TEAM", { status: 400 });
    await clearActiveTeam(tx, { activeTeamId: team.id, userId: input.userId });
    await recordSecurityEvent(tx, {
      userId: input.userId,
      type: "team_member_removed",
      ctx: current.user.id === input.userId ? ctx : null,
      actorUserId: current.user.id,
      details: { ...teamDetails(team, await orgName(tx, organizationId)), byOther: current.user.id !== input.userId },
    });
  }, TX_OPTIONS);
  return { message: "Team member removed successfully." };
}

/**
 * A page of a team's members (default: the session's active team), by createdAt then id. A team of an
 * organization the caller is not in is not found; inside it, its own members and those who may change members see it.
 */
export async function listTeamMembers(current: SessionWithUser, query: Page & { teamId?: string }) {
  assertTeamsOn();
  const teamId = query.teamId ?? current.session.activeTeamId;
  if (!teamId) throw new AuthError("YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM");
  const team = await db.team.findUnique({ where: { id: teamId } });
  const actor = team ? await findMember(db, team.organizationId, current.user.id) : null;
  if (!team || !actor) throw new AuthError("TEAM_NOT_FOUND");
  const inTeam = (await db.teamMember.count({ where: { teamId, userId: current.user.id } })) > 0;
  if (!mayListTeamMembers(actor.role, inTeam, await customRolesAmong(db, team.organizationId, actor.role))) throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_TEAM", { status: 400 });
  const members = await db.teamMember.findMany({ where: { teamId }, orderBy: [...TEAM_ORDER], ...pageArgs(query) });
  return members.map(publicTeamMember);
}

/** A page of a team's members with their name and e-mail (the team's page). */
export async function teamMembersWithUsers(teamId: string, page: Page = {}) {
  return db.teamMember.findMany({
    where: { teamId },
    include: { user: { select: { id: true, name: true, email: true } } },
    orderBy: [...TEAM_ORDER],
    ...pageArgs(page),
  });
}

/**
 * A user's teams, by when they joined (the (userId, createdAt, id) index). With `organizationId` (or `userId`, which
 * needs one: the active organization), that organization's teams of the user; without either, the caller's teams
 * in every organization they are still in.
 */
export async function listUserTeams(current: SessionWithUser, query: Page & { userId?: string; organizationId?: string }) {
  assertTeamsOn();
  const userId = query.userId ?? current.user.id;
  if (query.organizationId === undefined && query.userId === undefined) {
    const rows = await db.teamMember.findMany({
      where: { userId, team: { organization: { members: { some: { userId } } } } },
      include: { team: true },
      orderBy: [...TEAM_ORDER],
      ...pageArgs(query),
    });
    return rows.map((row) => publicTeam(row.team));
  }
  const organizationId = targetOrganizationId(current, query.organizationId);
  const actor = await requireMember(db, organizationId, current.user.id);
  if (!mayListTeamsOf({ userId: current.user.id, role: actor.role }, userId, await customRolesAmong(db, organizationId, actor.role))) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_MEMBER");
  if (userId !== current.user.id && !(await findMember(db, organizationId, userId))) throw notAMember();
  const rows = await db.teamMember.findMany({
    where: { userId, team: { organizationId } },
    include: { team: true },
    orderBy: [...TEAM_ORDER],
    ...pageArgs(query),
  });
  return rows.map((row) => publicTeam(row.team));
}

/** Sets (or with null, unsets) the session's active team: one of the active organization's, that the caller is in. */
export async function setActiveTeam(current: SessionWithUser, teamId: string | null | undefined) {
  assertTeamsOn();
  if (!teamId) {
    await db.session.updateMany({ where: { id: current.session.id }, data: { activeTeamId: null } });
    return null;
  }
  const organizationId = current.session.activeOrganizationId;
  if (!organizationId) throw new AuthError("NO_ACTIVE_ORGANIZATION");
  // Under the lock, so a removal from the team cannot slip between the check and the write.
  const team = await db.$transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const found = await teamOf(tx, organizationId, teamId);
    if (!(await tx.teamMember.count({ where: { teamId, userId: current.user.id } }))) throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
    await tx.session.updateMany({ where: { id: current.session.id }, data: { activeTeamId: found.id } });
    return found;
  }, TX_OPTIONS);
  return publicTeam(team);
}

/** A member who leaves or is removed from the organization leaves its teams; their sessions lose the active team. */
export async function leaveTeamsOf(tx: Transaction, organizationId: string, userId: string): Promise<void> {
  await tx.teamMember.deleteMany({ where: { userId, team: { organizationId } } });
}

/**
 * The teams `invite-member` names, checked: every id this organization's (a comma in one is refused, as the
 * invitation keeps them comma-separated), each with room. Returns the stored form, or null for none.
 */
export async function invitationTeams(tx: Transaction, organizationId: string, teamId: string | string[] | undefined): Promise<string | null> {
  if (teamId === undefined) return null;
  if (!teamsOn()) throw new AuthError("VALIDATION_ERROR", { message: "[body.teamId] Teams are not enabled" });
  const ids = [...new Set(typeof teamId === "string" ? [teamId] : teamId)];
  if (ids.some((id) => id.includes(","))) throw new AuthError("INVALID_TEAM_ID");
  if ((await tx.team.count({ where: { organizationId, id: { in: ids } } })) !== ids.length) throw new AuthError("TEAM_NOT_FOUND");
  for (const id of ids) await assertRoomInTeam(tx, id);
  return ids.join(",");
}

/**
 * Accepting an invitation joins the teams it still names (a team removed since is gone from it), under the lock
 * the accept holds. Returns the teams joined: the caller makes the one active when there is exactly one.
 */
export async function joinInvitationTeams(tx: Transaction, invitation: { organizationId: string; teamId: string | null }, userId: string, ctx?: EventCtx) {
  const ids = (invitation.teamId ?? "").split(",").filter(Boolean);
  if (ids.length === 0 || !teamsOn()) return [];
  const teams = await tx.team.findMany({ where: { organizationId: invitation.organizationId, id: { in: ids } }, orderBy: [...TEAM_ORDER] });
  const name = await orgName(tx, invitation.organizationId);
  for (const team of teams) await joinTeam(tx, team, userId, name, { userId, ctx });
  return teams;
}

/** The names of an invitation's teams, for its mail and its page. */
export async function invitationTeamNames(invitation: { organizationId: string; teamId: string | null }): Promise<string[]> {
  const ids = (invitation.teamId ?? "").split(",").filter(Boolean);
  if (ids.length === 0) return [];
  const teams = await db.team.findMany({ where: { organizationId: invitation.organizationId, id: { in: ids } }, orderBy: [...TEAM_ORDER], select: { name: true } });
  return teams.map((t) => t.name);
}



/**
 * The teams page's "Make active": the organization becomes the session's active one with this team, which must be
 * one of its teams that the caller is in (as set-active-team, from a page about an organization that may not be
 * active yet).
 */
export async function makeTeamActive(current: SessionWithUser, organizationId: string, teamId: string) {
  assertTeamsOn();
  return db.$transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    await requireMember(tx, organizationId, current.user.id);
    const team = await teamOf(tx, organizationId, teamId);
    if (!(await tx.teamMember.count({ where: { teamId, userId: current.user.id } }))) throw new AuthError("USER_IS_NOT_A_MEMBER_OF_THE_TEAM");
    await tx.session.updateMany({ where: { id: current.session.id }, data: { activeOrganizationId: organizationId, activeTeamId: team.id } });
    return publicTeam(team);
  }, TX_OPTIONS);
}
