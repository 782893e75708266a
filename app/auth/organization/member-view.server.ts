// What one member sees of an organization and may do there, in one call: the organization page's model. Each
// "may" is the rule the domain enforces when the member acts (permissions.ts), so a control shows only where
// using it would be allowed.
import { isAuthError } from "~/auth/errors";
import { isLiveInvitation } from "~/auth/organization/invitations.server";
import { getFullOrganization } from "~/auth/organization/organizations.server";
import {
  grantableRoles,
  isOwner,
  mayCancelInvitations,
  mayChangeRoleOf,
  mayDeleteOrganization,
  mayInvite,
  mayRemoveMember,
  mayUpdateOrganization,
} from "~/auth/organization/permissions";
import type { SessionWithUser } from "~/auth/session/sessions.server";

/** The organization `slug` as `current` may see and handle it; null when there is none or they are no member. */
export async function memberView(current: SessionWithUser, slug: string) {
  let organization;
  try {
    organization = await getFullOrganization(current, { organizationSlug: slug });
  } catch (thrown) {
    // Not a member, or no such organization: the same answer, so no one learns which slugs exist.
    if (isAuthError(thrown)) return null;
    throw thrown;
  }
  if (!organization) return null;
  const me = organization.members.find((m) => m.userId === current.user.id)!;
  // The only owner can neither leave nor give up the role (the domain refuses both under the lock): the page
  // offers neither, and says why.
  const onlyOwner = isOwner(me.role) && organization.members.filter((m) => isOwner(m.role)).length === 1;
  return {
    organization: { id: organization.id, name: organization.name, slug: organization.slug, logo: organization.logo },
    me: { memberId: me.id, role: me.role, onlyOwner },
    can: {
      update: mayUpdateOrganization(me.role),
      delete: mayDeleteOrganization(me.role),
      invite: mayInvite(me.role),
      cancel: mayCancelInvitations(me.role),
    },
    /** The roles this member may give, inviting or changing someone's role. */
    grantableRoles: grantableRoles(me.role),
    members: organization.members.map((m) => ({
      id: m.id,
      role: m.role,
      name: m.user.name,
      email: m.user.email,
      mayChangeRole: mayChangeRoleOf(me.role, m.role) && !(m.id === me.id && onlyOwner),
      isMe: m.id === me.id,
      // Oneself leaves from the "Leave" section instead.
      mayRemove: m.id !== me.id && mayRemoveMember(me, m),
    })),
    invitations: organization.invitations
      .filter((i) => isLiveInvitation(i))
      .map((i) => ({ id: i.id, email: i.email, role: i.role, expiresAt: i.expiresAt.toISOString() })),
  };
}

export type MemberView = NonNullable<Awaited<ReturnType<typeof memberView>>>;
