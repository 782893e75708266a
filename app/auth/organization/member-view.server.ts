// What one member sees of an organization and may do there, in one call: the organization page's model. Each
// "may" is the rule the domain enforces when the member acts (permissions.ts), so a control shows only where
// using it would be allowed. Members come a page at a time (ADR 044): a 10 000-member organization's page
// reads MEMBERS_PER_PAGE of them, not all.
import { isAuthError } from "~/auth/errors";
import { countOtherOwners } from "~/auth/organization/access.server";
import { allCustomRoles } from "~/auth/organization/custom-roles.server";
import { liveInvitationsOf } from "~/auth/organization/invitations.server";
import { pageOfMembers } from "~/auth/organization/members.server";
import { organizationOfMember } from "~/auth/organization/organizations.server";
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
import { db } from "~/db.server";
import { pageAt } from "~/auth/schemas";

export const MEMBERS_PER_PAGE = 50;

/**
 * The organization `slug` as `current` may see and handle it, with page `membersPage` (from 1) of its members;
 * null when there is none or they are no member.
 */
export async function memberView(current: SessionWithUser, slug: string, membersPage = 1) {
  let found;
  try {
    found = await organizationOfMember(current, { organizationSlug: slug });
  } catch (thrown) {
    // Not a member, or no such organization: the same answer, so no one learns which slugs exist.
    if (isAuthError(thrown)) return null;
    throw thrown;
  }
  if (!found) return null;
  const { organization, member: me } = found;
  const [{ members, total }, invitations, custom] = await Promise.all([
    pageOfMembers(organization.id, { limit: MEMBERS_PER_PAGE, offset: (membersPage - 1) * MEMBERS_PER_PAGE }),
    liveInvitationsOf(organization.id),
    // The organization's own roles (issue 42): what they permit counts in every "may" below.
    allCustomRoles(db, organization.id),
  ]);
  // The only owner can neither leave nor give up the role (the domain refuses both under the lock): the page
  // offers neither, and says why. One count, not the members loaded.
  const onlyOwner = isOwner(me.role) && (await countOtherOwners(db, organization.id, me.id)) === 0;
  return {
    organization: { id: organization.id, name: organization.name, slug: organization.slug, logo: organization.logo },
    me: { memberId: me.id, role: me.role, onlyOwner },
    can: {
      update: mayUpdateOrganization(me.role, custom),
      delete: mayDeleteOrganization(me.role, custom),
      invite: mayInvite(me.role, custom),
      cancel: mayCancelInvitations(me.role, custom),
    },
    /** The roles this member may give, inviting or changing someone's role: built-in and custom ones they hold all of (rule 3). */
    grantableRoles: grantableRoles(me.role, custom),
    members: members.map((m) => ({
      id: m.id,
      role: m.role,
      name: m.user.name,
      email: m.user.email,
      mayChangeRole: mayChangeRoleOf(me.role, m.role, undefined, custom) && !(m.id === me.id && onlyOwner),
      isMe: m.id === me.id,
      // Oneself leaves from the "Leave" section instead.
      mayRemove: m.id !== me.id && mayRemoveMember(me, m, custom),
    })),
    membersPage: pageAt(membersPage, MEMBERS_PER_PAGE, members.length, total),
    invitations: invitations.map((i) => ({ id: i.id, email: i.email, role: i.role, expiresAt: i.expiresAt.toISOString() })),
  };
}

export type MemberView = NonNullable<Awaited<ReturnType<typeof memberView>>>;
