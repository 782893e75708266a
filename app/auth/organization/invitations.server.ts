// Invitations (spec §4, §6, §8): invite (and resend), accept, reject, cancel, read and list. The e-mailed link
// carries a secret of its own, kept by the one verification mechanism (docs/decisions/015-organizations.md):
// invitation ids are readable by inviters and admins, so an id alone proves nothing; the secret proves the inbox.
import { newId } from "~/auth/core/crypto.server";
import { AuthError } from "~/auth/errors";
import { absoluteUrl } from "~/auth/core/links.server";
import { signUpWithEmail, type SignUpInput } from "~/auth/sign-in/credentials.server";
import type { RequestContext } from "~/auth/request-context.server";
import { clearSessionCookies, type SessionWithUser } from "~/auth/session/sessions.server";
import { proveInbox } from "~/auth/account/claim.server";
import { issueToken, peekToken, revokeTokensWhere } from "~/auth/verification.server";
import { db, isUniqueViolation, type Invitation, type User } from "~/db.server";
import { sendMail } from "~/email/mailer.server";
import { emails } from "~/email/templates.server";
import { env } from "~/env.server";
import { findMember, lockOrganization, requireMember, setActiveOrganizationId, targetOrganizationId, TX_OPTIONS } from "~/auth/organization/access.server";
import { customRolesAmong, mergeCustom, roleToGive } from "~/auth/organization/custom-roles.server";
import { pageArgs, type Page } from "~/auth/schemas";
import { mayCancelInvitations, mayHandleRole, mayInvite, parseRoles } from "~/auth/organization/permissions";
import { memberWithUser, publicInvitation } from "~/auth/organization/presenters.server";
import { invitationTeamNames, invitationTeams, joinInvitationTeams } from "~/auth/teams/team-members.server";

export const INVITATION_TOKEN_LENGTH = 43; // 62^43 ≈ 2^256
interface InvitationTokenPayload {
  /** The inviter: deleting them deletes the invitation, and with it the token. */
  userId: string;
  invitationId: string;
}

/** Only a pending, unexpired invitation can be accepted or rejected (spec §3); anything else is history. */
export const isLiveInvitation = (invitation: Pick<Invitation, "status" | "expiresAt">, now = Date.now()) =>
  invitation.status === "pending" && invitation.expiresAt.getTime() > now;

/** `isLiveInvitation` as a query condition. */
const liveWhere = () => ({ status: "pending", expiresAt: { gt: new Date() } });

export function invitationLink(invitationId: string, token: string): string {
  return absoluteUrl(`/invitations/${encodeURIComponent(invitationId)}?token=${encodeURIComponent(token)}`);
}

/** Whether `token` is this invitation's current link secret (constant-time: the lookup is by its hash). */
export async function linkSecretMatches(invitationId: string, token: string | null | undefined): Promise<boolean> {
  if (!token) return false;
  const payload = await peekToken<InvitationTokenPayload>("invitation", token);
  return payload?.invitationId === invitationId;
}

/**
 * Whether a sign-up that will return to `redirectTo` was started from an invitation link whose secret is valid
 * and whose invited address is `email`: then the mail reached that inbox and the new account starts verified.
 */
export async function invitationLinkProvesEmail(redirectTo: string | null | undefined, email: string): Promise<boolean> {
  if (!redirectTo) return false;
  let url: URL;
  try {
    url = new URL(redirectTo, "http://invitation.invalid");
  } catch {
    return false;
  }
  const match = /^\/invitations\/([A-Za-z0-9]{1,128})$/.exec(url.pathname);
  const token = url.searchParams.get("token");
  if (!match || !token || (url.origin !== "http://invitation.invalid" && url.origin !== new URL(absoluteUrl("/")).origin)) return false;
  const invitation = await db.invitation.findUnique({ where: { id: match[1] } });
  if (!invitation || !isLiveInvitation(invitation) || invitation.email !== email.trim().toLowerCase()) return false;
  return linkSecretMatches(invitation.id, token);
}

/**
 * Sign-up with e-mail and password from an invitation's "Create an account to accept", which comes back to the
 * invitation's link afterwards (`returnTo`). When that link carries the invitation's live secret and invites
 * this very address, the mail reached the inbox: the account starts verified, with no second e-mail round
 * trip. Any other sign-up is an ordinary one.
 */
export async function signUpFromInvitationLink(ctx: RequestContext, input: SignUpInput, returnTo: string | null | undefined) {
  return signUpWithEmail(ctx, { ...input, emailProven: await invitationLinkProvesEmail(returnTo, input.email) });
}

/** A fresh link secret for the invitation (older ones stop working) and the e-mail that carries it. */
async function mailInvitation(invitation: Invitation, inviter: User, organizationName: string): Promise<void> {
  const teamNames = await invitationTeamNames(invitation);
  await revokeTokensWhere("invitation", "invitationId", invitation.id);
  const ttlSeconds = Math.max(1, Math.ceil((invitation.expiresAt.getTime() - Date.now()) / 1000));
  const token = await issueToken<InvitationTokenPayload>(
    "invitation",
    { userId: inviter.id, invitationId: invitation.id },
    { ttlSeconds, length: INVITATION_TOKEN_LENGTH },
  );
  const lifetime = Math.round(env.AUTH_INVITATION_EXPIRES_IN / 1000);
  await sendMail(emails.invitation(invitation.email, organizationName, inviter.name || inviter.email, invitation.role, invitationLink(invitation.id, token), lifetime, teamNames));
}

/**
 * Invites an address. Needs `invitation: create`; only an owner may invite an owner. An address with a pending
 * invitation is refused unless `resend`, which renews the expiry and the link secret and mails it again. The
 * organization's lock makes two invites of one address leave one pending invitation.
 */
export async function inviteMember(
  current: SessionWithUser,
  input: { email: string; role: string | string[]; organizationId?: string; resend?: boolean; teamId?: string | string[] },
) {
  const organizationId = targetOrganizationId(current, input.organizationId);
  const email = input.email.trim().toLowerCase();
  // The shape is checked before the lock; which names exist, under it (rule 8).
  if (parseRoles(input.role).length === 0) throw new AuthError("ROLE_NOT_FOUND");
  const { invitation, organizationName } = await db.$transaction(async (tx) => {
    await lockOrganization(tx, organizationId);
    const actor = await requireMember(tx, organizationId, current.user.id);
    const actorRoles = await customRolesAmong(tx, organizationId, actor.role);
    if (!mayInvite(actor.role, actorRoles)) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_INVITE_USERS_TO_THIS_ORGANIZATION");
    // Built-in or this organization's own (read under the lock), and only one the inviter holds all of (rule 3).
    const { role, custom } = await roleToGive(tx, organizationId, input.role);
    if (!mayHandleRole(actor.role, role, mergeCustom(actorRoles, custom))) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_INVITE_USER_WITH_THIS_ROLE");
    if (await tx.member.count({ where: { organizationId, user: { email } } })) throw new AuthError("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
    const organization = await tx.organization.findUniqueOrThrow({ where: { id: organizationId }, select: { name: true } });
    // Its teams (issue 42): each this organization's, each with room (checked again on accepting).
    const teamId = await invitationTeams(tx, organizationId, input.teamId);
    const expiresAt = new Date(Date.now() + env.AUTH_INVITATION_EXPIRES_IN);
    const pending = await tx.invitation.findFirst({ where: { organizationId, email, ...liveWhere() } });
    if (pending) {
      if (!input.resend) throw new AuthError("USER_IS_ALREADY_INVITED_TO_THIS_ORGANIZATION");
      const renewed = await tx.invitation.update({ where: { id: pending.id }, data: { expiresAt, ...(input.teamId !== undefined ? { teamId } : {}) } });
      return { invitation: renewed, organizationName: organization.name };
    }
    if ((await tx.member.count({ where: { organizationId } })) >= env.AUTH_ORGANIZATION_MEMBERSHIP_LIMIT) {
      throw new AuthError("ORGANIZATION_MEMBERSHIP_LIMIT_REACHED");
    }
    // Older, expired invitations of the address stop counting as pending.
    await tx.invitation.updateMany({ where: { organizationId, email, status: "pending" }, data: { status: "canceled" } });
    const created = await tx.invitation.create({
      data: { id: newId(), organizationId, email, role, status: "pending", inviterId: current.user.id, expiresAt, teamId },
    });
    return { invitation: created, organizationName: organization.name };
  }, TX_OPTIONS);
  try {
    await mailInvitation(invitation, current.user, organizationName);
  } catch (error) {
    // Nobody received a link: a fresh invitation is withdrawn; a resent one keeps its earlier link's fate.
    if (!input.resend) await db.invitation.deleteMany({ where: { id: invitation.id } });
    throw error;
  }
  return publicInvitation(invitation);
}

/** Spec §6: accepting, rejecting or viewing an invitation needs the session e-mail to equal the invited one. */
const isAddressedTo = (user: Pick<User, "email">, invitation: Pick<Invitation, "email">) => invitation.email === user.email.toLowerCase();

/** An unverified address proves nothing (anyone can sign up with someone else's) unless the deployment says so. */
/** Whether invitations to this user's address stay hidden (and unanswerable without the mailed link) for now. */
export const inboxUnproven = (user: Pick<User, "emailVerified">) => !user.emailVerified && env.AUTH_INVITATION_REQUIRE_VERIFIED_EMAIL === "on";

/** The invitation if it is live and addressed to the caller. */
async function recipientInvitation(current: SessionWithUser, invitationId: string) {
  const invitation = await db.invitation.findUnique({ where: { id: invitationId } });
  if (!invitation || !isLiveInvitation(invitation)) throw new AuthError("INVITATION_NOT_FOUND");
  if (!isAddressedTo(current.user, invitation)) throw new AuthError("YOU_ARE_NOT_THE_RECIPIENT_OF_THE_INVITATION");
  return invitation;
}

/**
 * Where a signed-in user stands with an invitation:
 * - `other-address`: it is for somebody else;
 * - `verify-email-first`: it is for their address, but that address is unproven, so answering needs a verified
 *   e-mail or the e-mailed link's secret;
 * - `may-answer`: they may accept or decline it; `bySecret` says whether the link's secret proved the inbox.
 * Accepting and declining enforce exactly this, and the invitation page asks it to know what to offer.
 */
export async function inviteeStanding(
  user: Pick<User, "email" | "emailVerified">,
  invitation: Pick<Invitation, "id" | "email">,
  token?: string | null,
): Promise<{ standing: "other-address" | "verify-email-first" | "may-answer"; bySecret: boolean }> {
  if (!isAddressedTo(user, invitation)) return { standing: "other-address", bySecret: false };
  const bySecret = await linkSecretMatches(invitation.id, token);
  if (!bySecret && inboxUnproven(user)) return { standing: "verify-email-first", bySecret };
  return { standing: "may-answer", bySecret };
}

/** The live invitation the caller may answer, or why not (in the order the API has always answered). */
async function answerableInvitation(current: SessionWithUser, invitationId: string, token?: string) {
  const invitation = await recipientInvitation(current, invitationId);
  const { standing, bySecret } = await inviteeStanding(current.user, invitation, token);
  if (standing === "verify-email-first") throw new AuthError("EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION");
  return { invitation, bySecret };
}

/**
 * Ten parallel accepts: the conditional status update lets exactly one through; the others find nothing pending.
 * Accepted by the link's secret, the invitation proved the inbox: a never-proven account is claimed (ADR 028),
 * unless `ctx` comes from the browser that signed up, and this browser's session ends with the others.
 */
export async function acceptInvitation(current: SessionWithUser, invitationId: string, token?: string, ctx?: RequestContext) {
  const { invitation, bySecret } = await answerableInvitation(current, invitationId, token);
  const result = await db.$transaction(async (tx) => {
    await lockOrganization(tx, invitation.organizationId);
    const { count } = await tx.invitation.updateMany({
      where: { id: invitation.id, ...liveWhere() },
      data: { status: "accepted" },
    });
    if (count === 0) throw new AuthError("INVITATION_NOT_FOUND");
    if (!(await findMember(tx, invitation.organizationId, invitation.inviterId))) throw new AuthError("INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION");
    if ((await tx.member.count({ where: { organizationId: invitation.organizationId } })) >= env.AUTH_ORGANIZATION_MEMBERSHIP_LIMIT) {
      throw new AuthError("ORGANIZATION_MEMBERSHIP_LIMIT_REACHED");
    }
    try {
      const member = await tx.member.create({
        data: { organizationId: invitation.organizationId, userId: current.user.id, role: invitation.role },
        include: { user: { select: { id: true, name: true, email: true, image: true } } },
      });
      // The teams it names (issue 42); exactly one becomes the session's active team, as Better Auth does.
      const teams = await joinInvitationTeams(tx, invitation, current.user.id, ctx);
      return { invitation: publicInvitation({ ...invitation, status: "accepted" }), member: memberWithUser(member), activeTeamId: teams.length === 1 ? teams[0]!.id : null };
    } catch (error) {
      if (isUniqueViolation(error)) throw new AuthError("USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION");
      throw error;
    }
  }, TX_OPTIONS);
  const { activeTeamId, ...accepted } = result;
  await revokeTokensWhere("invitation", "invitationId", invitation.id);
  // The link's secret reached this inbox: the address is proven (no second e-mail round trip).
  const proof = bySecret && !current.user.emailVerified ? await proveInbox(ctx ?? null, current.user.id, invitation.email) : null;
  if (proof?.ended) {
    if (ctx) clearSessionCookies(ctx);
  } else {
    await setActiveOrganizationId(current.session.id, invitation.organizationId, activeTeamId);
  }
  return accepted;
}

export async function rejectInvitation(current: SessionWithUser, invitationId: string, token?: string) {
  const { invitation } = await answerableInvitation(current, invitationId, token);
  const { count } = await db.invitation.updateMany({
    where: { id: invitation.id, ...liveWhere() },
    data: { status: "rejected" },
  });
  if (count === 0) throw new AuthError("INVITATION_NOT_FOUND");
  await revokeTokensWhere("invitation", "invitationId", invitation.id);
  return { invitation: publicInvitation({ ...invitation, status: "rejected" }), member: null };
}

/** Spec §4: cancel sets canceled without itself checking the current status; it needs `invitation: cancel`. */
export async function cancelInvitation(current: SessionWithUser, invitationId: string) {
  const invitation = await db.invitation.findUnique({ where: { id: invitationId } });
  if (!invitation) throw new AuthError("INVITATION_NOT_FOUND");
  const actor = await requireMember(db, invitation.organizationId, current.user.id);
  if (!mayCancelInvitations(actor.role, await customRolesAmong(db, invitation.organizationId, actor.role))) throw new AuthError("YOU_ARE_NOT_ALLOWED_TO_CANCEL_THIS_INVITATION");
  const canceled = await db.invitation.update({ where: { id: invitation.id }, data: { status: "canceled" } });
  await revokeTokensWhere("invitation", "invitationId", invitation.id);
  return publicInvitation(canceled);
}

/** GET /organization/get-invitation: the recipient's live invitation with its organization and inviter. */
export async function getInvitation(current: SessionWithUser, invitationId: string) {
  const invitation = await recipientInvitation(current, invitationId);
  const [organization, inviter] = await Promise.all([
    db.organization.findUnique({ where: { id: invitation.organizationId } }),
    db.member.findUnique({
      where: { organizationId_userId: { organizationId: invitation.organizationId, userId: invitation.inviterId } },
      include: { user: { select: { email: true } } },
    }),
  ]);
  if (!organization) throw new AuthError("ORGANIZATION_NOT_FOUND");
  if (!inviter) throw new AuthError("INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION");
  return { ...publicInvitation(invitation), organizationName: organization.name, organizationSlug: organization.slug, inviterEmail: inviter.user.email };
}

/** A page of the organization's invitations, oldest first (by default the first 100, as Better Auth bounds it). */
export async function listInvitations(current: SessionWithUser, organizationId?: string, page?: Page) {
  const id = targetOrganizationId(current, organizationId);
  await requireMember(db, id, current.user.id);
  const invitations = await db.invitation.findMany({ where: { organizationId: id }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], ...pageArgs(page) });
  return invitations.map(publicInvitation);
}

/** The organization's live invitations, oldest first (the first 100): what its page lists. */
export async function liveInvitationsOf(organizationId: string) {
  return db.invitation.findMany({ where: { organizationId, ...liveWhere() }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], ...pageArgs() });
}

/** The caller's live invitations (the first 100); none for an unverified address when verification is required. */
export async function listUserInvitations(current: SessionWithUser, page?: Page) {
  if (inboxUnproven(current.user)) return [];
  const invitations = await db.invitation.findMany({
    where: { email: current.user.email.toLowerCase(), ...liveWhere() },
    include: { organization: { select: { name: true, slug: true } } },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    ...pageArgs(page),
  });
  return invitations.map((i) => ({ ...publicInvitation(i), organizationName: i.organization.name, organizationSlug: i.organization.slug }));
}

export type InvitationPageState = "pending" | "expired" | "accepted" | "rejected" | "canceled" | "unknown";

/** What the /invitations/{id} page shows to anyone holding the id: it verifies nothing by itself. */
export async function describeInvitation(invitationId: string, token: string | null) {
  const invitation = await db.invitation.findUnique({
    where: { id: invitationId },
    include: { organization: { select: { name: true, slug: true } }, inviter: { select: { name: true, email: true } } },
  });
  if (!invitation) return { state: "unknown" as InvitationPageState, invitation: null, linkSecretValid: false };
  const state: InvitationPageState =
    invitation.status === "pending" ? (isLiveInvitation(invitation) ? "pending" : "expired") : (invitation.status as InvitationPageState);
  return {
    state,
    invitation: {
      id: invitation.id,
      email: invitation.email,
      role: invitation.role,
      expiresAt: invitation.expiresAt.toISOString(),
      organizationName: invitation.organization.name,
      organizationSlug: invitation.organization.slug,
      inviterName: invitation.inviter.name,
      inviterEmail: invitation.inviter.email,
      /** The teams it names (issue 42), as they are called now. */
      teamNames: await invitationTeamNames(invitation),
    },
    linkSecretValid: state === "pending" && (await linkSecretMatches(invitation.id, token)),
  };
}
