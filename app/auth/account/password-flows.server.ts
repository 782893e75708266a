// Password reset (by e-mailed link), change (knowing the current one) and set (for accounts without one).
import { normalizeEmail } from "~/auth/core/email-address";
import { AuthError } from "~/auth/errors";
import { absoluteUrl, PAGES } from "~/auth/core/links.server";
import { assertPasswordLength, CREDENTIAL_PROVIDER, hashPassword, verifyPassword } from "~/auth/account/password.server";
import { publicUser } from "~/auth/core/presenters.server";
import { requireRecentVerification } from "~/auth/step-up/guard.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import type { RequestContext } from "~/auth/request-context.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { replaceSessionAfterPasswordChange } from "~/auth/sign-in/first-factor.server";
import { consumeToken, mailToken, peekToken, revokeTokens } from "~/auth/verification.server";
import { afterResponse } from "~/background-work.server";
import { checkPasswordWithLockout } from "~/auth/sign-in/password-lockout.server";
import { requireProofUnderBurst } from "~/auth/proof-of-work/gate.server";
import { db, isUniqueViolation } from "~/db.server";
import { proveInbox } from "~/auth/account/claim.server";
import { revokeWaysIn } from "~/auth/account/revocation.server";
import type { MailDraft } from "~/email/mailer.server";
import { emails } from "~/email/templates.server";
import { assertPasswordNotCompromised } from "~/auth/password-policy/check.server";
import { env } from "~/env.server";

/** Spec §9: reset tokens are 24 letters and digits. */
export const RESET_TOKEN_LENGTH = 24;
export const RESET_REQUESTED_MESSAGE = "If this email exists in our system, check your email for the reset link";

interface ResetPayload {
  userId: string;
}

/**
 * POST /forget-password and /request-password-reset. The answer and its timing are the same for every address:
 * the lookup, the token and the mail all happen after the answer (a failure is logged by the mailer).
 */
export async function requestPasswordReset(input: { email: string; redirectTo?: string }) {
  const email = normalizeEmail(input.email);
  afterResponse(() => mailResetLink(email, input.redirectTo));
  return { status: true, message: RESET_REQUESTED_MESSAGE };
}

/**
 * A reset asked for by a visitor (the API and the forgot-password page, not an administrator): under a burst it
 * needs a solved challenge first (issue 39 §5, ADR 060), then it answers as `requestPasswordReset`.
 */
export async function requestPasswordResetAsVisitor(ctx: RequestContext, input: { email: string; redirectTo?: string }) {
  await requireProofUnderBurst(ctx, { email: normalizeEmail(input.email) }, "reset");
  return requestPasswordReset(input);
}

async function mailResetLink(email: string, redirectTo: string | undefined): Promise<void> {
  // Its language read with it, so the mail needs no second look-up (mailLanguageFor).
  const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true, locale: true } });
  if (user) await mailResetLinkTo(user, redirectTo);
}

/** The mail a reset link travels in: the request's own by default; "This wasn't me" and an admin's have theirs. */
export type ResetLinkMail = (url: string, lifetimeSeconds: number) => MailDraft;

/**
 * Mails a reset link to the account's address. `securityNotice`: sent whatever the per-recipient cap says
 * ("This wasn't me" mails one, and a flood of reset requests must not keep it from the owner, ADR 048).
 */
export async function mailResetLinkTo(
  user: { id: string; email: string; locale?: string | null },
  redirectTo?: string,
  sending: { securityNotice?: boolean } = {},
  compose: ResetLinkMail = (url, ttl) => ({
    ...emails.resetPassword(user.email, url, ttl),
    ...(user.locale !== undefined ? { recipient: { locale: user.locale } } : {}),
  }),
): Promise<void> {
  const ttl = env.AUTH_RESET_TOKEN_TTL;
  const query = new URLSearchParams({ callbackURL: redirectTo || PAGES.resetPassword });
  await mailToken<ResetPayload>(
    "reset-password",
    { userId: user.id },
    { ttlSeconds: ttl, length: RESET_TOKEN_LENGTH },
    (token) => compose(absoluteUrl(`/api/auth/reset-password/${token}?${query}`), ttl),
    sending,
  );
}

/** Whether a reset link is still good (GET /reset-password/{token} and the reset page), without using it. */
export async function isResetTokenUsable(token: string): Promise<boolean> {
  return (await peekToken<ResetPayload>("reset-password", token)) !== null;
}

/** The address of the account a usable reset link is for (the page prefills it on sign-in afterwards). */
export async function resetTokenEmail(token: string): Promise<string | null> {
  const payload = await peekToken<ResetPayload>("reset-password", token);
  if (!payload) return null;
  return (await db.user.findUnique({ where: { id: payload.userId }, select: { email: true } }))?.email ?? null;
}

/**
 * POST /reset-password: the token works once; other reset links and (by default) all sessions end. The link
 * reached the account's inbox, so this proves it (claiming a never-proven account, ADR 028).
 */
export async function resetPassword(ctx: RequestContext, input: { newPassword: string; token: string }) {
  assertPasswordLength(input.newPassword); // before the token is used up, so a typo costs nothing
  // A bad token must cost no scrypt work: otherwise a stream of guesses slows everyone's sign-in.
  const link = await peekToken<ResetPayload>("reset-password", input.token);
  if (!link) throw new AuthError("INVALID_TOKEN");
  // A breached password is refused with the link still unused (issue 39 §2).
  await assertPasswordNotCompromised(input.newPassword, { ctx, userId: link.userId, flow: "reset" });
  const passwordHash = await hashPassword(input.newPassword);
  const { userId } = await consumeToken<ResetPayload>("reset-password", input.token).catch((error) => {
    // An expired reset link is answered like any other bad one: 400 INVALID_TOKEN (Better Auth's wire format).
    throw error instanceof AuthError && error.code === "TOKEN_EXPIRED" ? new AuthError("INVALID_TOKEN") : error;
  });
  const user = await db.user.findUnique({ where: { id: userId }, select: { id: true, email: true } });
  if (!user) throw new AuthError("INVALID_TOKEN");
  // Every link mailed to an earlier address was revoked when the address changed: this one went to `user.email`.
  await replacePassword(ctx, userId, user.email, passwordHash);
  return { status: true };
}

/**
 * After a reset proven by mail to `email`: the claim of a never-proven account (ADR 028) and the new password,
 * in one transaction; other reset links revoked, and (by default) every session ended. The password is marked as
 * set through the inbox: until it is changed with the current password while signed in, it proves no more than
 * the inbox does, so the e-mailed second factor is not offered after it (ADR 027).
 */
export async function replacePassword(ctx: RequestContext, userId: string, email: string, passwordHash: string): Promise<void> {
  await proveInbox(ctx, userId, email, async (tx) => {
    // The old password ends for sign-ins in flight too (ADR 055). Signed out everywhere (the default) includes what
    // applications hold and the consents given to them: whoever resets may be recovering from a thief, who could
    // have let an application of their own in.
    const signedOutEverywhere = env.AUTH_REVOKE_SESSIONS_ON_PASSWORD_RESET === "on";
    const revoked = await revokeWaysIn(tx, userId, signedOutEverywhere ? { sessions: "all", applications: "tokens-and-consents" } : {});
    const updated = await tx.account.updateMany({
      where: { userId, providerId: CREDENTIAL_PROVIDER },
      data: { password: passwordHash, passwordResetByEmail: true },
    });
    // A user who signed up socially gets a password this way too.
    if (updated.count === 0) {
      await tx.account.create({ data: { userId, providerId: CREDENTIAL_PROVIDER, accountId: userId, password: passwordHash, passwordResetByEmail: true } });
    }
    // `signedOutEverywhere`: the mail says every device was signed out (a claim may have ended them a moment ago).
    await recordSecurityEvent(tx, { userId, type: "password_reset", ctx, details: { sessionsEnded: revoked.sessions, signedOutEverywhere } });
  });
  await revokeTokens("reset-password", userId);
  // The owner hears of it, whoever did it (the password_reset event's mail, ADR 048): a reset by someone else who
  // reads the inbox is then not silent.
}

/** POST /change-password: needs the current password; may sign out every other device. */
export async function changePassword(
  ctx: RequestContext,
  current: SessionWithUser,
  input: { newPassword: string; currentPassword: string; revokeOtherSessions?: boolean },
) {
  assertPasswordLength(input.newPassword);
  const account = await db.account.findFirst({ where: { userId: current.user.id, providerId: CREDENTIAL_PROVIDER } });
  if (!account?.password) throw new AuthError("CREDENTIAL_ACCOUNT_NOT_FOUND");
  const stored = account.password;
  // Counted in the account's bucket for this device, like a sign-in's password (issue 39 §1, ADR 057).
  const check = await checkPasswordWithLockout(ctx, { userId: current.user.id }, "change_password", () => verifyPassword(input.currentPassword, stored));
  if (!check.right) throw new AuthError("INVALID_PASSWORD");
  // After the current password (only its owner hears that the new one is breached), before the new one's hashing.
  await assertPasswordNotCompromised(input.newPassword, { ctx, userId: current.user.id, flow: "change", sessionId: current.session.id });
  // Chosen by someone who knew the current password inside a session (which passed the second factor, if on):
  // no longer a password the inbox alone could have set. The new password, the other sessions' end and the
  // event commit together.
  const passwordHash = await hashPassword(input.newPassword);
  const version = await db.$transaction(async (tx) => {
    // The old password ends for sign-ins in flight too (ADR 055). A new session replaces every existing one
    // below, so a stolen cookie stops working here too.
    const revoked = await revokeWaysIn(tx, current.user.id, input.revokeOtherSessions ? { sessions: "all" } : {});
    await tx.account.update({ where: { id: account.id }, data: { password: passwordHash, passwordResetByEmail: false } });
    await recordSecurityEvent(tx, { userId: current.user.id, type: "password_changed", ctx, sessionId: current.session.id, details: { sessionsEnded: revoked.sessions } });
    return revoked.version;
  });
  // A reset link requested before the change would otherwise still undo it.
  await revokeTokens("reset-password", current.user.id);
  let token: string | null = null;
  if (input.revokeOtherSessions) {
    // It is no new sign-in (the password alone, no second factor): it keeps the replaced session's sign-in
    // time (ADR 030).
    token = (await replaceSessionAfterPasswordChange(ctx, current, version ?? -1)).session.token;
  }
  return { token, user: publicUser(current.user) };
}

/**
 * Server-only (no HTTP route): gives a password to an account that has none, e.g. after social sign-up. A new
 * way in: it needs a recent sign-in, and the owner is mailed (ADR 030).
 */
export async function setPassword(ctx: RequestContext, current: SessionWithUser, newPassword: string): Promise<void> {
  await requireRecentVerification(ctx, current, "/set-password");
  assertPasswordLength(newPassword);
  const existing = await db.account.findFirst({ where: { userId: current.user.id, providerId: CREDENTIAL_PROVIDER } });
  if (existing?.password) throw new AuthError("USER_ALREADY_HAS_A_PASSWORD");
  await assertPasswordNotCompromised(newPassword, { ctx, userId: current.user.id, flow: "set", sessionId: current.session.id });
  const passwordHash = await hashPassword(newPassword);
  try {
    await db.$transaction(async (tx) => {
      // Not an end of anything, but a change of the account's credentials all the same: moved like one (ADR 055).
      await revokeWaysIn(tx, current.user.id, {});
      if (existing) {
        // Conditional on still having none: of two set-password requests at once, one sets it.
        const { count } = await tx.account.updateMany({ where: { id: existing.id, password: null }, data: { password: passwordHash, passwordResetByEmail: false } });
        if (count === 0) throw new AuthError("USER_ALREADY_HAS_A_PASSWORD");
      } else {
        await tx.account.create({
          data: { userId: current.user.id, providerId: CREDENTIAL_PROVIDER, accountId: current.user.id, password: passwordHash, passwordResetByEmail: false },
        });
      }
      // The owner is mailed after the commit (a new way in, ADR 030).
      await recordSecurityEvent(tx, { userId: current.user.id, type: "password_set", ctx, sessionId: current.session.id });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("USER_ALREADY_HAS_A_PASSWORD");
    throw error;
  }
}

/** Whether the user can sign in with a password (decides which account-page section is shown). */
export async function hasPassword(userId: string): Promise<boolean> {
  const account = await db.account.findFirst({ where: { userId, providerId: CREDENTIAL_PROVIDER, password: { not: null } }, select: { id: true } });
  return account !== null;
}
