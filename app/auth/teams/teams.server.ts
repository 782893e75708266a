// Teams themselves (issue 42, docs/decisions/068-teams.md): create, list, rename, remove, and the default team of a
// new organization. Every change runs under the organization's lock (ADR 015), so "the team limit" and "the last
// team" are counted and acted on by one transaction at a time; the unique (organizationId, normalizedName) index
// decides between two creates of one name.
import { AuthError } from "~/auth/errors";
import type { RequestContext } from "~/auth/request-context.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import { pageArgs, type Page } from "~/auth/schemas";
import { lockOrganization, requireMember, targetOrganizationId, TX_OPTIONS } from "~/auth/organization/access.server";
import { customRolesAmong } from "~/auth/organization/custom-roles.server";
import { db, isUniqueViolation, type Team, type TeamMember, type Transaction } from "~/db.server";
import { env } from "~/env.server";
import { mayCreateTeams, mayDeleteTeams, mayUpdateTeams } from "~/auth/teams/permissions";
import { normalizeTeamName } from "~/auth/teams/schemas";

type Client = typeof db | Transaction;
type EventCtx = RequestContext | null | undefined;

/** `AUTH_TEAMS=off`: the team routes are not there (404), as in Better Auth without `teams`. */
export function assertTeamsOn(): void {
  if (env.AUTH_TEAMS === "off") throw new AuthError("NOT_FOUND");
}

export const teamsOn = () => env.AUTH_TEAMS === "on";

/** The one order teams and team members are listed in, served by their (…, createdAt, id) indexes (ADR 044). */
export const TEAM_ORDER = [{ createdAt: "asc" }, { id: "asc" }] as const satisfies { createdAt?: "asc"; id?: "asc" }[];

export function publicTeam(team: Team) {
  return { id: team.id, name: team.name, organizationId: team.organizationId, createdAt: team.createdAt, updatedAt: team.updatedAt };
}

export function publicTeamMember(member: TeamMember) {
  return { id: member.id, teamId: member.teamId, userId: member.userId, createdAt: member.createdAt };
}

export type PublicTeam = ReturnType<typeof publicTeam>;

/** The team if it is this organization's; a team of another organization is not found here, whatever was named. */
export async function teamOf(client: Client, organizationId: string, teamId: string): Promise<Team> {
  const team = await client.team.findFirst({ where: { id: teamId, organizationId } });
  if (!team) throw new AuthError("TEAM_NOT_FOUND");
  return team;
}

async function organizationName(client: Client, organizationId: string): Promise<string> {
  return (await client.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { name: true } })).name;
}

/** The details every team event carries (flat, never a secret). */
export const teamDetails = (team: Pick<Team, "id" | "name" | "organizationId">, orgName: string) => ({
  organizationId: team.organizationId,
  organizationName: orgName,
  teamId: team.id,
  teamName: team.name,
});

/**
 * Makes a team inside a transaction that holds the organization's lock: refused past AUTH_TEAM_LIMIT (the default
 * team counts) and when the name is taken in any case.
 */
export async function createTeamUnderLock(tx: Transaction, organizationId: string, name: string): Promise<Team> {
  if (env.AUTH_TEAM_LIMIT > 0 && (await tx.team.count({ where: { organizationId } })) >= env.AUTH_TEAM_LIMIT) {
    throw new AuthError("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS");
  }
  const normalizedName = normalizeTeamName(name);
  if (await tx.team.count({ where: { organizationId, normalizedName } })) throw new AuthError("TEAM_ALREADY_EXISTS");
  return tx.team.create({ data: { organizationId, name, normalizedName } });
}

/** Runs `work` and answers a unique-name collision (a race the lock did not see, e.g. on SQLite) as Better Auth does. */
async function sameNameIsTaken<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("TEAM_ALREADY_EXISTS");
    throw error;
  }
}

export async function createTeam(current: SessionWithUser, input: { name: string; organizationId?: string }, ctx?: EventCtx) {
  assertTeamsOn();
  const organizationId = targetOrganizationId(current, input.organizationId);
  const team = await sameNameIsTaken(() =>
    db.$transaction(async (tx) => {
      await lockOrganization(tx, organizationId);
      const actor = await requireMember(tx, organizationId, current.user.id);
      if (!mayCreateTeams(actor.role, await customRolesAmong(tx, organizationId, actor.role))) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION");
      const created = await createTeamUnderLock(tx, organizationId, input.name);
      await recordSecurityEvent(tx, { userId: current.user.id, type: "team_created", ctx, details: teamDetails(created, await organizationName(tx, organizationId)) });
      return created;
    }, TX_OPTIONS),
  );
  return publicTeam(team);
}

/** A page of the organization's teams (100 without `limit`), by createdAt then id; any member may list them. */
export async function listTeams(current: SessionWithUser, query: Page & { organizationId?: string }) {
  assertTeamsOn();
  const organizationId = targetOrganizationId(current, query.organizationId);
  await requireMember(db, organizationId, current.user.id);
  return (await pageOfTeams(organizationId, query)).map(publicTeam);
}

export async function pageOfTeams(organizationId: string, page: Page = {}) {
  return db.team.findMany({ where: { organizationId }, orderBy: [...TEAM_ORDER], ...pageArgs(page) });
}

export async function updateTeam(current: SessionWithUser, input: { teamId: string; data: { name?: string; organizationId?: string } }, ctx?: EventCtx) {
  assertTeamsOn();
  const organizationId = targetOrganizationId(current, input.data.organizationId);
  const team = await sameNameIsTaken(() =>
    db.$transaction(async (tx) => {
      await lockOrganization(tx, organizationId);
      const actor = await requireMember(tx, organizationId, current.user.id).catch(() => {
        throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM");
      });
      if (!mayUpdateTeams(actor.role, await customRolesAmong(tx, organizationId, actor.role))) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM");
      const existing = await teamOf(tx, organizationId, input.teamId);
      const name = input.data.name;
      if (name === undefined || name === existing.name) return existing;
      const normalizedName = normalizeTeamName(name);
      if (normalizedName !== existing.normalizedName && (await tx.team.count({ where: { organizationId, normalizedName } }))) {
        throw new AuthError("TEAM_ALREADY_EXISTS");
      }
      const updated = await tx.team.update({ where: { id: existing.id }, data: { name, normalizedName } });
      await recordSecurityEvent(tx, {
        userId: current.user.id,
        type: "team_updated",
        ctx,
        details: { ...teamDetails(updated, await organizationName(tx, organizationId)), from: existing.name },
      });
      return updated;
    }, TX_OPTIONS),
  );
  return publicTeam(team);
}

/**
 * Clears `activeTeamId` on the sessions that match, naming them by id so the session cache of every process hears
 * of it (the change feed announces writes by session id, user id or token; ADR 024/068).
 */
export async function clearActiveTeam(tx: Client, where: { activeTeamId: string | { in: string[] }; userId?: string }): Promise<void> {
  const sessions = await tx.session.findMany({ where, select: { id: true } });
  if (sessions.length === 0) return;
  await tx.session.updateMany({ where: { id: { in: sessions.map((s) => s.id) }, activeTeamId: where.activeTeamId }, data: { activeTeamId: null } });
}

/** Pending invitations naming a removed team stop naming it (their other teams stay). */
async function dropTeamFromInvitations(tx: Transaction, organizationId: string, teamId: string): Promise<void> {
  const naming = await tx.invitation.findMany({ where: { organizationId, status: "pending", teamId: { contains: teamId } }, select: { id: true, teamId: true } });
  for (const invitation of naming) {
    const rest = (invitation.teamId ?? "").split(",").filter((id) => id && id !== teamId);
    await tx.invitation.update({ where: { id: invitation.id }, data: { teamId: rest.length ? rest.join(",") : null } });
  }
}

/**
 * Removes a team (`team: delete`): its memberships go, pending invitations lose it, and sessions that had it
 * active — the caller's own included, which Better Auth refuses — stop having it. The last team stays.
 */
export async function removeTeam(current: SessionWithUser, input: { teamId: string; organizationId?: string }, ctx?: EventCtx) {
  assertTeamsOn();
  const organizationId = targetOrganizationId(current, input.organizationId);
  await db.$transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const actor = await requireMember(tx, organizationId, current.user.id);
    if (!mayDeleteTeams(actor.role, await customRolesAmong(tx, organizationId, actor.role))) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION");
    const team = await teamOf(tx, organizationId, input.teamId);
    if ((await tx.team.count({ where: { organizationId } })) <= 1) throw new AuthError("UNABLE_TO_REMOVE_LAST_TEAM");
    await dropTeamFromInvitations(tx, organizationId, team.id);
    await clearActiveTeam(tx, { activeTeamId: team.id });
    await tx.team.delete({ where: { id: team.id } });
    await recordSecurityEvent(tx, { userId: current.user.id, type: "team_removed", ctx, details: teamDetails(team, await organizationName(tx, organizationId)) });
  }, TX_OPTIONS);
  return { message: "Team removed successfully." };
}

/** AUTH_TEAMS_DEFAULT_TEAM: inside the organization's creating transaction, its team named after it, with the creator. */
export async function createDefaultTeam(tx: Transaction, organization: { id: string; name: string }, userId: string): Promise<Team | null> {
  if (!teamsOn() || env.AUTH_TEAMS_DEFAULT_TEAM !== "on") return null;
  const team = await tx.team.create({ data: { organizationId: organization.id, name: organization.name, normalizedName: normalizeTeamName(organization.name) } });
  await tx.teamMember.create({ data: { teamId: team.id, userId } });
  await recordSecurityEvent(tx, { userId, type: "team_created", details: teamDetails(team, organization.name) });
  return team;
}

/** The organization's first 100 teams, for get-full-organization (none when teams are off: Better Auth has no field). */
export async function teamsForFullOrganization(organizationId: string) {
  return teamsOn() ? (await pageOfTeams(organizationId)).map(publicTeam) : undefined;
}
