// POST /delete-user and GET /delete-user/callback (spec §6): enabled by configuration, needs the password or a
// fresh session, and in "email" mode also a link from the inbox, followed while signed in (so a mail scanner
// opening the link cannot delete anything).
import { AuthError } from "~/auth/errors";
import { revokeWaysIn } from "~/auth/account/revocation.server";
import { assertNoOrganizationLeftWithoutOwner, settleOrganizationsOfDeletedUser } from "~/auth/organization/access.server";
import { absoluteUrl } from "~/auth/core/links.server";
import { CREDENTIAL_PROVIDER, verifyPassword } from "~/auth/account/password.server";
import type { RequestContext } from "~/auth/request-context.server";
import { clearSessionCookies, type SessionWithUser } from "~/auth/session/sessions.server";
import { requireRecentVerification, requireRecentVerificationBesidesPassword } from "~/auth/step-up/guard.server";
import { consumeToken, mailToken, peekToken } from "~/auth/verification.server";
import { checkPasswordWithLockout } from "~/auth/sign-in/password-lockout.server";
import { db } from "~/db.server";
import { emails } from "~/email/templates.server";
import { env } from "~/env.server";

/** Spec §9: delete-account confirmation tokens are 32 characters and live 24 hours (configurable). */
export const DELETE_TOKEN_LENGTH = 32;
export const USER_DELETED = "User deleted";
export const VERIFICATION_EMAIL_SENT = "Verification email sent";

interface DeletePayload {
  userId: string;
}

function assertEnabled() {
  if (env.AUTH_DELETE_ACCOUNT === "off") throw new AuthError("DELETE_USER_IS_DISABLED");
}

/**
 * What a deletion ends through the one revocation (ADR 055) before the row goes: sign-ins in flight, sessions,
 * every outstanding token, and what applications hold, which no foreign key ties to the user. Accounts, passkeys,
 * memberships, two-factor, consents and sent invitations then go by cascade.
 */
export const DELETION_ENDS = { sessions: "all", applications: "tokens-and-consents", outstandingTokens: "all" } as const;

/** Removes the user and everything that cannot outlive them, in one transaction. */
async function deleteUserNow(ctx: RequestContext, userId: string) {
  await db.$transaction(async (tx) => {
    await revokeWaysIn(tx, userId, DELETION_ENDS);
    await settleOrganizationsOfDeletedUser(tx, userId);
    // deleteMany: a second request racing this one (a double-clicked button) finds nothing left to delete,
    // which is the outcome both asked for, not an error.
    await tx.user.deleteMany({ where: { id: userId } });
  });
  clearSessionCookies(ctx);
  return { success: true, message: USER_DELETED };
}

export async function deleteUser(
  ctx: RequestContext,
  current: SessionWithUser,
  input: { password?: string; token?: string; callbackURL?: string },
) {
  assertEnabled();
  if (input.token) return completeDeletion(ctx, current, input.token);
  if (input.password !== undefined) {
    // The password confirms it's the person; with two-factor on it is one factor of two (ADR 059).
    await requireRecentVerificationBesidesPassword(ctx, current, "/delete-user", "SESSION_EXPIRED_REAUTHENTICATE_TO_PERFORM_THIS_ACTION");
    const account = await db.account.findFirst({ where: { userId: current.user.id, providerId: CREDENTIAL_PROVIDER } });
    if (!account?.password) throw new AuthError("CREDENTIAL_ACCOUNT_NOT_FOUND");
    const stored = account.password;
    const typed = input.password;
    // Counted in the account's bucket for this device, like a sign-in's password (issue 39 §1, ADR 057).
    const check = await checkPasswordWithLockout(ctx, { userId: current.user.id }, "delete_user", () => verifyPassword(typed, stored));
    if (!check.right) throw new AuthError("INVALID_PASSWORD");
  } else {
    await requireRecentVerification(ctx, current, "/delete-user", "SESSION_EXPIRED_REAUTHENTICATE_TO_PERFORM_THIS_ACTION");
  }
  // Say so now rather than after a confirmation e-mail round trip (checked again when the account goes).
  await assertNoOrganizationLeftWithoutOwner(db, current.user.id);
  if (env.AUTH_DELETE_ACCOUNT !== "email") return deleteUserNow(ctx, current.user.id);

  const ttl = env.AUTH_DELETE_TOKEN_TTL;
  await mailToken<DeletePayload>("delete-account", { userId: current.user.id }, { ttlSeconds: ttl, length: DELETE_TOKEN_LENGTH }, (token) => {
    const query = new URLSearchParams({ token, ...(input.callbackURL ? { callbackURL: input.callbackURL } : {}) });
    return emails.confirmAccountDeletion(current.user.email, absoluteUrl(`/api/auth/delete-user/callback?${query}`), ttl);
  });
  return { success: true, message: VERIFICATION_EMAIL_SENT };
}

/** The e-mailed confirmation: only the signed-in owner of the token can use it. */
export async function completeDeletion(ctx: RequestContext, current: SessionWithUser, token: string) {
  assertEnabled();
  // Refuse someone else's (or an expired) link before using it up, so a click from the wrong account cannot
  // spoil the owner's link.
  const pending = await peekToken<DeletePayload>("delete-account", token);
  if (pending?.userId !== current.user.id) throw new AuthError("INVALID_TOKEN");
  const { userId } = await consumeToken<DeletePayload>("delete-account", token);
  if (userId !== current.user.id) throw new AuthError("INVALID_TOKEN");
  return deleteUserNow(ctx, userId);
}
