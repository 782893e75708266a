// What one member sees of an organization's teams, and may do there (issue 42): the teams pages' models. Each
// "may" is the rule the domain enforces (app/auth/teams/permissions.ts), so a control shows only where using it
// would be allowed. Lists come a page at a time (ADR 044).
import { isAuthError } from "~/auth/errors";
import { organizationOfMember } from "~/auth/organization/organizations.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { pageAt } from "~/auth/schemas";
import { db } from "~/db.server";
import { customRolesAmong } from "~/auth/organization/custom-roles.server";
import { mayAddTeamMembers, mayCreateTeams, mayDeleteTeams, mayListTeamMembers, mayRemoveTeamMembers, mayUpdateTeams } from "~/auth/teams/permissions";
import { TEAM_ORDER, teamsOn } from "~/auth/teams/teams.server";

export const TEAMS_PER_PAGE = 50;
/** How many of the organization's members the "Add to team" select offers (those not in the team, oldest first). */
export const CANDIDATES_SHOWN = 200;

/** The organization `slug` for one of its members, or null (no such organization, not a member, teams off). */
async function organizationFor(current: SessionWithUser, slug: string) {
  if (!teamsOn()) return null;
  try {
    return await organizationOfMember(current, { organizationSlug: slug });
  } catch (thrown) {
    // Not a member, or no such organization: the same answer, so no one learns which slugs exist.
    if (isAuthError(thrown)) return null;
    throw thrown;
  }
}

export async function teamsView(current: SessionWithUser, slug: string, page = 1) {
  const found = await organizationFor(current, slug);
  if (!found) return null;
  const { organization, member: me } = found;
  const where = { organizationId: organization.id };
  const [teams, total] = await Promise.all([
    db.team.findMany({
      where,
      orderBy: [...TEAM_ORDER],
      take: TEAMS_PER_PAGE,
      skip: (page - 1) * TEAMS_PER_PAGE,
      include: { _count: { select: { members: true } } },
    }),
    db.team.count({ where }),
  ]);
  const mine = new Set(
    (await db.teamMember.findMany({ where: { userId: current.user.id, teamId: { in: teams.map((t) => t.id) } }, select: { teamId: true } })).map((m) => m.teamId),
  );
  const activeTeamId = current.session.activeOrganizationId === organization.id ? current.session.activeTeamId : null;
  const custom = await customRolesAmong(db, organization.id, me.role);
  return {
    organization: { id: organization.id, name: organization.name, slug: organization.slug },
    can: { create: mayCreateTeams(me.role, custom) },
    teams: teams.map((t) => ({ id: t.id, name: t.name, members: t._count.members, mine: mine.has(t.id), active: t.id === activeTeamId })),
    teamsPage: pageAt(page, TEAMS_PER_PAGE, teams.length, total),
  };
}

export async function teamView(current: SessionWithUser, slug: string, teamId: string, page = 1) {
  const found = await organizationFor(current, slug);
  if (!found) return null;
  const { organization, member: me } = found;
  const team = await db.team.findFirst({ where: { id: teamId, organizationId: organization.id } });
  if (!team) return null;
  const inTeam = (await db.teamMember.count({ where: { teamId, userId: current.user.id } })) > 0;
  const custom = await customRolesAmong(db, organization.id, me.role);
  const seesMembers = mayListTeamMembers(me.role, inTeam, custom);
  const [members, total, teamCount] = await Promise.all([
    seesMembers
      ? db.teamMember.findMany({
          where: { teamId },
          include: { user: { select: { id: true, name: true, email: true } } },
          orderBy: [...TEAM_ORDER],
          take: TEAMS_PER_PAGE,
          skip: (page - 1) * TEAMS_PER_PAGE,
        })
      : Promise.resolve([]),
    db.teamMember.count({ where: { teamId } }),
    db.team.count({ where: { organizationId: organization.id } }),
  ]);
  const mayAdd = mayAddTeamMembers(me.role, custom);
  // The organization's members not in the team, for "Add to team" (bounded: the first CANDIDATES_SHOWN).
  const candidates = mayAdd
    ? await db.member.findMany({
        where: { organizationId: organization.id, user: { teamMemberships: { none: { teamId } } } },
        include: { user: { select: { id: true, name: true, email: true } } },
        orderBy: [{ createdAt: "asc" }, { id: "asc" }],
        take: CANDIDATES_SHOWN,
      })
    : [];
  return {
    organization: { id: organization.id, name: organization.name, slug: organization.slug },
    team: { id: team.id, name: team.name },
    seesMembers,
    can: { add: mayAdd, remove: mayRemoveTeamMembers(me.role, custom), rename: mayUpdateTeams(me.role, custom), delete: mayDeleteTeams(me.role, custom) },
    isLastTeam: teamCount <= 1,
    members: members.map((m) => ({ userId: m.userId, name: m.user.name, email: m.user.email, isMe: m.userId === current.user.id })),
    membersPage: pageAt(page, TEAMS_PER_PAGE, members.length, total),
    candidates: candidates.map((m) => ({ userId: m.userId, name: m.user.name, email: m.user.email })),
  };
}

/** The teams the invite form offers as checkboxes (the first 100), or null when teams are off. */
export async function teamsForInviteForm(organizationId: string) {
  if (!teamsOn()) return null;
  return db.team.findMany({ where: { organizationId }, orderBy: [...TEAM_ORDER], take: 100, select: { id: true, name: true } });
}
