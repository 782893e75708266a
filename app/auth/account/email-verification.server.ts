// E-mail verification: the link sent on sign-up (and on request), and GET /verify-email, which also completes
// the confirmation step of an e-mail change (both are HS256-signed tokens, spec §9). Making and mailing the link
// is app/auth/sign-in/verification-link.server.ts (re-exported here).
import { clearCookie, SIGN_UP_BROWSER_COOKIE } from "~/auth/core/cookies.server";
import { AuthError } from "~/auth/errors";
import { publicUser } from "~/auth/core/presenters.server";
import type { RequestContext } from "~/auth/request-context.server";
import { clearSessionCookies, getSession, refreshCookieCache, type SessionWithUser } from "~/auth/session/sessions.server";
import { proveInbox } from "~/auth/account/claim.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import { finishFirstFactor } from "~/auth/sign-in/first-factor.server";
import {
  bindVerificationToBrowser,
  emailVerificationEnabled,
  isSignUpBrowser,
  sendVerificationInBackground,
  sendVerificationNow,
  type VerificationPayload,
} from "~/auth/sign-in/verification-link.server";
import { consumeToken, peekToken, readSignedToken, revokeAllTokensOf, type SignedPayload } from "~/auth/verification.server";
import { afterResponse } from "~/background-work.server";
import { db, isUniqueViolation, type User } from "~/db.server";
import { env } from "~/env.server";
import { normalizeEmail } from "~/auth/core/email-address";

export interface ChangeEmailPayload {
  userId: string;
  email: string;
  newEmail: string;
}

export {
  bindVerificationToBrowser,
  emailVerificationEnabled,
  emailVerificationRequired,
  sendVerificationInBackground,
  sendVerificationNow,
  verifyEmailLink,
} from "~/auth/sign-in/verification-link.server";

/** POST /send-verification-email. Signed out, the answer is the same whether or not the address is known. */
export async function requestVerificationEmail(ctx: RequestContext, input: { email: string; callbackURL?: string }) {
  if (!emailVerificationEnabled()) throw new AuthError("VERIFICATION_EMAIL_ISNT_ENABLED");
  const email = normalizeEmail(input.email);
  const current = await getSession(ctx);
  if (current) {
    if (current.user.email !== email) throw new AuthError("EMAIL_MISMATCH");
    if (current.user.emailVerified) throw new AuthError("EMAIL_ALREADY_VERIFIED");
    await sendVerificationNow(current.user, input.callbackURL);
    // Signed in, this browser holds the account's credentials: its holder proving the inbox here (the link
    // opened in this browser) is the person who set them, so nothing ends (ADR 028's exception).
    bindVerificationToBrowser(ctx, current.user.id);
    return { status: true };
  }
  // Known, verified or unknown: the same answer after the same work; the lookup and the mail come afterwards.
  afterResponse(async () => {
    const user = await db.user.findUnique({ where: { email } });
    if (user && !user.emailVerified) await sendVerificationNow(user, input.callbackURL);
  });
  return { status: true };
}

/** How a verification or change-of-address link is being used. */
export interface LinkUse {
  /**
   * A person asked for what the link does: a POST from the link's page or from a client. A GET (a mail scanner,
   * a link preview, another device) acts only in the account's own browser (issue 37).
   */
  confirmed?: boolean;
  /** The caller established that the holder of the account's own ways in is using the link ("That was me"). */
  byCreator?: boolean;
}

/** What a link's signed token says, once its user and address still match (else USER_NOT_FOUND or UNAUTHORIZED). */
export async function readEmailLink(ctx: RequestContext, token: string) {
  const payload = await readSignedToken<VerificationPayload | ChangeEmailPayload>(["email-verification", "change-email"], token);
  const user = await db.user.findUnique({ where: { id: payload.userId } });
  // The address the link was sent for must still be the account's address.
  if (!user || user.email !== payload.email) throw new AuthError("USER_NOT_FOUND");
  const current = await getSession(ctx);
  if (current && current.user.id !== user.id) throw new AuthError("UNAUTHORIZED");
  // The account's own browser: signed in to it (it holds the account's ways in), or the one that signed up.
  const ownBrowser = current !== null || isSignUpBrowser(ctx, user.id);
  // A verification of an address already verified changes nothing; every other use changes the account.
  const changesAccount = payload.purpose === "change-email" || !user.emailVerified;
  return { payload, user, current, ownBrowser, changesAccount };
}

/** Whether the link's single use is still there (not used, not withdrawn): looked at, never used up. */
export async function emailLinkIsLive(payload: SignedPayload<unknown>): Promise<boolean> {
  return (await peekToken(payload.purpose, payload.jti)) !== null;
}

/**
 * GET /verify-email (the link opened) and POST /verify-email (the link confirmed): marks the address verified,
 * or applies a confirmed e-mail change. Opened anywhere but the account's own browser, a link that would change
 * the account changes nothing: LINK_NEEDS_CONFIRMATION (the route sends a browser to the link's page), and the
 * link stays good for the person's click.
 */
export async function verifyEmailToken(ctx: RequestContext, token: string, use: LinkUse = {}) {
  const { payload, user, current, ownBrowser, changesAccount } = await readEmailLink(ctx, token);
  if (!ownBrowser && !use.confirmed && !use.byCreator) {
    if (!changesAccount) return { status: true, user: publicUser(user) };
    if (!(await emailLinkIsLive(payload))) throw new AuthError("INVALID_TOKEN");
    throw new AuthError("LINK_NEEDS_CONFIRMATION");
  }
  if (payload.purpose === "change-email") {
    return applyEmailChange(ctx, current, user, payload as SignedPayload<ChangeEmailPayload>, token);
  }

  let repeat = false;
  try {
    await consumeToken("email-verification", token, { signed: true });
  } catch (error) {
    // Mail scanners often open links before the person does: a repeat of a completed verification succeeds.
    if (!(error instanceof AuthError && error.code === "INVALID_TOKEN" && user.emailVerified)) throw error;
    repeat = true;
  }
  // The link proved the inbox: a never-proven account is claimed first (ADR 028), unless the account's own
  // browser or its creator proves it. The address is verified only if it is still the account's address: a
  // change of address between reading the user and this write must not let the old address's link verify the new one.
  const byCreator = use.byCreator === true || current !== null;
  const proof = user.emailVerified ? null : await proveInbox(ctx, user.id, payload.email, undefined, { byCreator });
  if (proof && !proof.verified) throw new AuthError("USER_NOT_FOUND");
  const verified = proof?.user ?? user;
  // This browser's session, if it had one, was among those the claim ended.
  if (current && proof?.ended) clearSessionCookies(ctx);
  else if (current) refreshCookieCache(ctx, { session: current.session, user: verified });
  // Only the first use signs in (a used link must not stay a way into the account until its JWT expires), and
  // only in the browser that signed up: through the first-factor door, so two-factor still asks its second step
  // (with the authenticator app: the link proved the inbox, so an e-mailed code would prove nothing more).
  else if (env.AUTH_AUTO_SIGN_IN_AFTER_VERIFICATION === "on" && !repeat && isSignUpBrowser(ctx, verified.id)) {
    clearCookie(ctx, SIGN_UP_BROWSER_COOKIE);
    const outcome = await finishFirstFactor(ctx, verified, { method: "verification-link" });
    if (outcome.twoFactorRedirect) return { status: true, user: publicUser(verified), ...outcome };
  }
  return { status: true, user: publicUser(verified) };
}

async function applyEmailChange(
  ctx: RequestContext,
  current: SessionWithUser | null,
  user: User,
  payload: ChangeEmailPayload,
  token: string,
) {
  await consumeToken("change-email", token, { signed: true });
  // Confirmed from the current inbox: only a verified address is asked to confirm a change.
  const updated = await replaceEmail(ctx, user.id, payload.email, payload.newEmail, { verified: true });
  if (current) refreshCookieCache(ctx, { session: current.session, user: updated });
  if (emailVerificationEnabled()) sendVerificationInBackground(updated);
  return { status: true, user: publicUser(updated) };
}

/**
 * Gives the account a new, unverified address, conditional on the address it had (of two changes at once, one
 * applies), and ends every link mailed before: a reset link sent to the old address must not outlive it.
 */
export async function replaceEmail(ctx: RequestContext, userId: string, fromEmail: string, newEmail: string, from: { verified: boolean }): Promise<User> {
  try {
    await db.$transaction(async (tx) => {
      const { count } = await tx.user.updateMany({ where: { id: userId, email: fromEmail }, data: { email: newEmail, emailVerified: false } });
      if (count === 0) throw new AuthError("USER_NOT_FOUND");
      // Both addresses in full: the owner reads where the account went. The old address is mailed (ADR 048) when
      // it was verified: an unverified one may be anybody's (ADR 028), and is not told about an account.
      await recordSecurityEvent(tx, { userId, type: "email_changed", ctx, details: { from: fromEmail, to: newEmail, fromVerified: from.verified } });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("COULDNT_UPDATE_YOUR_EMAIL");
    throw error;
  }
  await revokeAllTokensOf(userId);
  return db.user.findUniqueOrThrow({ where: { id: userId } });
}

/** The ?error= values of the verify-email redirect (spec §8). */
export function verifyEmailErrorValue(error: AuthError): string {
  switch (error.code) {
    case "TOKEN_EXPIRED":
      return "token_expired";
    case "USER_NOT_FOUND":
      return "user_not_found";
    case "UNAUTHORIZED":
      return "unauthorized";
    default:
      return "invalid_token";
  }
}
