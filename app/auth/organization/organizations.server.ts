// Organizations themselves: create, check a slug, update, delete, read in full, list, and the session's active one.
import { AuthError } from "~/auth/errors";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { db, isUniqueViolation } from "~/db.server";
import { env } from "~/env.server";
import { revokeTokensWhere } from "~/auth/verification.server";
import { lockUserForCreate, requireMember, setActiveOrganizationId, targetOrganizationId, TX_OPTIONS } from "~/auth/organization/access.server";
import { mayDeleteOrganization, mayUpdateOrganization } from "~/auth/organization/permissions";
import { customRolesAmong } from "~/auth/organization/custom-roles.server";
import { MEMBER_ORDER, memberWithUser, publicInvitation, publicMember, publicOrganization } from "~/auth/organization/presenters.server";
import { DEFAULT_PAGE_SIZE, pageArgs, type Page } from "~/auth/schemas";
import { clearActiveTeam, createDefaultTeam, teamsForFullOrganization } from "~/auth/teams/teams.server";
import { endOrganizationConnectionIdentities } from "~/auth/sso/identities.server";

const USER_FIELDS = { select: { id: true, name: true, email: true, image: true } } as const;

export interface CreateInput {
  name: string;
  slug: string;
  logo?: string;
  metadata?: Record<string, string>;
}

/** Creates an organization with `userId` as its first member, holding the creator role (spec §4). */
export async function createOrganization(userId: string, input: CreateInput) {
  if (env.AUTH_ORGANIZATION_CREATION === "off") throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION");
  try {
    // The slug's unique index decides between two creates of one slug: the second fails as a whole.
    return await db.$transaction(async (tx) => {
      if (env.AUTH_ORGANIZATION_LIMIT > 0) {
        // Counted under the user's lock: of concurrent creates, exactly the limit's number get through.
        await lockUserForCreate(tx, userId);
        if ((await tx.member.count({ where: { userId } })) >= env.AUTH_ORGANIZATION_LIMIT) {
          throw new AuthError("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_ORGANIZATIONS");
        }
      }
      const organization = await tx.organization.create({
        data: {
          name: input.name,
          slug: input.slug,
          logo: input.logo || null,
          metadata: input.metadata ? JSON.stringify(input.metadata) : null,
        },
      });
      const member = await tx.member.create({ data: { organizationId: organization.id, userId, role: env.AUTH_ORGANIZATION_CREATOR_ROLE } });
      // AUTH_TEAMS_DEFAULT_TEAM (issue 42): a team named after it, with the creator in it.
      const defaultTeam = await createDefaultTeam(tx, organization, userId);
      return { ...publicOrganization(organization), members: [publicMember(member)], defaultTeamId: defaultTeam?.id ?? null };
    }, TX_OPTIONS);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("ORGANIZATION_ALREADY_EXISTS");
    throw error;
  }
}

/** POST /organization/create for a signed-in user: the new organization becomes active unless asked not to. */
export async function createForSession(current: SessionWithUser, input: CreateInput & { userId?: string; keepCurrentActiveOrganization?: boolean }) {
  // `userId` lets server-side code create on someone's behalf; from a browser it may only name the caller.
  if (input.userId !== undefined && input.userId !== current.user.id) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_ORGANIZATION");
  const { defaultTeamId, ...created } = await createOrganization(current.user.id, input);
  // Its default team becomes the session's active team, as Better Auth does.
  if (!input.keepCurrentActiveOrganization) await setActiveOrganizationId(current.session.id, created.id, defaultTeamId);
  return created;
}

export async function checkSlug(slug: string) {
  if (await db.organization.count({ where: { slug } })) throw new AuthError("ORGANIZATION_ALREADY_EXISTS");
  return { status: true };
}

export async function updateOrganization(
  current: SessionWithUser,
  input: { organizationId?: string; data: { name?: string; slug?: string; logo?: string | null; metadata?: Record<string, string> | null } },
) {
  const organizationId = targetOrganizationId(current, input.organizationId);
  const member = await requireMember(db, organizationId, current.user.id);
  if (!mayUpdateOrganization(member.role, await customRolesAmong(db, member.organizationId, member.role))) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_ORGANIZATION");
  const { name, slug, logo, metadata } = input.data;
  try {
    const organization = await db.organization.update({
      where: { id: organizationId },
      data: {
        name,
        slug,
        logo: logo === undefined ? undefined : logo || null,
        metadata: metadata === undefined ? undefined : metadata === null ? null : JSON.stringify(metadata),
      },
    });
    return publicOrganization(organization);
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("ORGANIZATION_ALREADY_EXISTS");
    throw error;
  }
}

/** Deletes the organization with its members and invitations; sessions that had it active lose it (FK). */
export async function deleteOrganization(current: SessionWithUser, organizationId: string) {
  const member = await requireMember(db, organizationId, current.user.id);
  if (!mayDeleteOrganization(member.role, await customRolesAmong(db, organizationId, member.role))) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_DELETE_THIS_ORGANIZATION");
  const invitations = await db.invitation.findMany({ where: { organizationId, status: "pending" }, select: { id: true } });
  // Its teams go with it (ON DELETE CASCADE); sessions that had one of them active stop having it.
  const teams = await db.team.findMany({ where: { organizationId }, select: { id: true } });
  if (teams.length) await clearActiveTeam(db, { activeTeamId: { in: teams.map((t) => t.id) } });
  // Its SSO connections go with it (ON DELETE CASCADE), and the identities linked through them end first.
  const deleted = await db.$transaction(async (tx) => {
    await endOrganizationConnectionIdentities(tx, organizationId);
    return tx.organization.deleteMany({ where: { id: organizationId } });
  });
  if (deleted.count === 0) throw new AuthError("ORGANIZATION_NOT_FOUND");
  // Their links' secrets would expire anyway; they go now with the invitations they belonged to.
  for (const { id } of invitations) await revokeTokensWhere("invitation", "invitationId", id);
  return { id: organizationId };
}

/**
 * The organization a call names — by id, else by slug, else the session's active one — checked to exist and to
 * have the caller as a member (spec §6: members only). Null when nothing names one.
 */
export async function organizationOfMember(current: SessionWithUser, by: { organizationId?: string; organizationSlug?: string }) {
  let organizationId = by.organizationId;
  if (!organizationId && by.organizationSlug) {
    const found = await db.organization.findUnique({ where: { slug: by.organizationSlug }, select: { id: true } });
    if (!found) throw new AuthError("ORGANIZATION_NOT_FOUND");
    organizationId = found.id;
  }
  organizationId ??= current.session.activeOrganizationId ?? undefined;
  if (!organizationId) return null;
  const member = await requireMember(db, organizationId, current.user.id);
  const organization = await db.organization.findUnique({ where: { id: organizationId } });
  if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
  return { organization, member };
}

/**
 * The organization with its first members (and their name, e-mail, image) in joining order and its latest
 * invitations (ADR 044): `membersLimit` members, by default Better Auth's membership limit (100), and the 100
 * most recent invitations, oldest first. The rest is paged with list-members and list-invitations.
 */
export async function getFullOrganization(
  current: SessionWithUser,
  by: { organizationId?: string; organizationSlug?: string; membersLimit?: number },
) {
  const found = await organizationOfMember(current, by);
  if (!found) return null;
  const { organization } = found;
  const [members, invitations, teams] = await Promise.all([
    db.member.findMany({
      where: { organizationId: organization.id },
      include: { user: USER_FIELDS },
      orderBy: MEMBER_ORDER,
      take: by.membersLimit ?? env.AUTH_ORGANIZATION_MEMBERSHIP_LIMIT,
    }),
    db.invitation.findMany({ where: { organizationId: organization.id }, orderBy: { createdAt: "desc" }, take: DEFAULT_PAGE_SIZE }),
    teamsForFullOrganization(organization.id),
  ]);
  return {
    ...publicOrganization(organization),
    members: members.map(memberWithUser),
    invitations: invitations.reverse().map(publicInvitation),
    // With teams on, its first 100 teams (issue 42).
    ...(teams ? { teams } : {}),
  };
}

export async function setActiveOrganization(current: SessionWithUser, input: { organizationId?: string | null; organizationSlug?: string }) {
  if (input.organizationId === null || (input.organizationId === undefined && !input.organizationSlug)) {
    await setActiveOrganizationId(current.session.id, null);
    return null;
  }
  // Better Auth answers with the organization as get-full-organization gives it: its first page of members.
  const full = await getFullOrganization(current, { organizationId: input.organizationId, organizationSlug: input.organizationSlug });
  if (!full) throw new AuthError("ORGANIZATION_NOT_FOUND");
  // Switching organizations ends the active team; choosing the active one again keeps it.
  await setActiveOrganizationId(current.session.id, full.id, full.id === current.session.activeOrganizationId ? (current.session.activeTeamId ?? null) : null);
  return full;
}

/** The user's organizations (a page of them, in joining order), with the role they hold in each (for pages). */
export async function listOrganizationsWithRole(userId: string, page?: Page) {
  const memberships = await db.member.findMany({ where: { userId }, include: { organization: true }, orderBy: MEMBER_ORDER, ...pageArgs(page) });
  return memberships.map((m) => ({ ...publicOrganization(m.organization), role: m.role }));
}

/** How many organizations the user is a member of (the Organizations page's pager). */
export async function countOrganizationsOf(userId: string): Promise<number> {
  return db.member.count({ where: { userId } });
}

export async function listOrganizations(userId: string, page?: Page) {
  return (await listOrganizationsWithRole(userId, page)).map(({ role: _role, ...organization }) => organization);
}

/**
 * What the active-organization switcher shows: the user's (first 100) organizations and the session's active one.
 * Anyone in more reaches the rest through the Organizations page's pages, and switches from each one's page.
 */
export async function switcherData(current: SessionWithUser | null) {
  if (!current) return null;
  const activeId = current.session.activeOrganizationId;
  // One more than shown, to know whether there are more.
  const rows = await db.member.findMany({
    where: { userId: current.user.id },
    select: { organization: { select: { id: true, name: true } } },
    orderBy: MEMBER_ORDER,
    take: DEFAULT_PAGE_SIZE + 1,
  });
  const organizations = rows.slice(0, DEFAULT_PAGE_SIZE).map((m) => m.organization);
  // The active one is always there to be shown as selected, even when it is past the first 100.
  if (activeId && !organizations.some((o) => o.id === activeId)) {
    const active = await db.member.findFirst({ where: { userId: current.user.id, organizationId: activeId }, select: { organization: { select: { id: true, name: true } } } });
    if (active) organizations.push(active.organization);
  }
  return { organizations, activeId, more: rows.length > DEFAULT_PAGE_SIZE };
}
export type SwitcherData = Awaited<ReturnType<typeof switcherData>>;
