// The wire shapes of organizations, members and invitations (Better Auth's field names).
import type { Invitation, Member, Organization, User } from "~/db.server";
import { env } from "~/env.server";

function parseMetadata(text: string | null): Record<string, string> | null {
  if (!text) return null;
  try {
    return JSON.parse(text) as Record<string, string>;
  } catch {
    return null;
  }
}

export function publicOrganization(org: Organization) {
  return { id: org.id, name: org.name, slug: org.slug, logo: org.logo, metadata: parseMetadata(org.metadata), createdAt: org.createdAt };
}

export function publicMember(member: Member) {
  return { id: member.id, organizationId: member.organizationId, userId: member.userId, role: member.role, createdAt: member.createdAt };
}

export function memberWithUser(member: Member & { user: Pick<User, "id" | "name" | "email" | "image"> }) {
  const { user } = member;
  return { ...publicMember(member), user: { id: user.id, name: user.name, email: user.email, image: user.image } };
}

/** The link secret is not here: no API returns it (docs/decisions/015-organizations.md). */
export function publicInvitation(invitation: Invitation) {
  return {
    id: invitation.id,
    organizationId: invitation.organizationId,
    email: invitation.email,
    role: invitation.role,
    status: invitation.status,
    inviterId: invitation.inviterId,
    expiresAt: invitation.expiresAt,
    createdAt: invitation.createdAt,
    // Better Auth's field with teams on: the teams it names, comma-separated, or null (issue 42).
    ...(env.AUTH_TEAMS === "on" ? { teamId: invitation.teamId ?? null } : {}),
  };
}

/**
 * The one order members are listed in (joining order; the id breaks ties, so pages neither skip nor repeat
 * anyone): what the (organizationId, createdAt, id) and (userId, createdAt) indexes serve (ADR 044).
 */
export const MEMBER_ORDER = [{ createdAt: "asc" }, { id: "asc" }] as const satisfies { createdAt?: "asc"; id?: "asc" }[];

export type PublicOrganization = ReturnType<typeof publicOrganization>;
export type MemberWithUser = ReturnType<typeof memberWithUser>;
