// E-mail verification: the link sent on sign-up (and on request), and GET /verify-email, which also completes
// the confirmation step of an e-mail change (both are HS256-signed tokens, spec §9).
import { AuthError } from "~/auth/errors";
import { absoluteUrl, PAGES } from "~/auth/links.server";
import { publicUser } from "~/auth/presenters.server";
import type { RequestContext } from "~/auth/request-context.server";
import { getSession, refreshCookieCache, startSession, type SessionWithUser } from "~/auth/session.server";
import { consumeToken, mailToken, readSignedToken, type SignedPayload } from "~/auth/verification.server";
import { db, isUniqueViolation, type User } from "~/db.server";
import { emails } from "~/email/templates.server";
import { env } from "~/env.server";
import { normalizeEmail } from "~/auth/email-address";

interface VerificationPayload {
  userId: string;
  email: string;
}
export interface ChangeEmailPayload {
  userId: string;
  email: string;
  newEmail: string;
}

export const emailVerificationEnabled = () => env.AUTH_EMAIL_VERIFICATION !== "off";
export const emailVerificationRequired = () => env.AUTH_EMAIL_VERIFICATION === "required";

export function verifyEmailLink(token: string, callbackURL: string | undefined): string {
  const query = new URLSearchParams({ token, callbackURL: callbackURL || PAGES.emailVerified });
  return absoluteUrl(`/api/auth/verify-email?${query}`);
}

function verificationTokenFor(user: Pick<User, "id" | "email">) {
  const payload: VerificationPayload = { userId: user.id, email: user.email };
  return { payload, options: { ttlSeconds: env.AUTH_EMAIL_VERIFICATION_TTL, signed: true } };
}

const verificationMail = (user: Pick<User, "email">, token: string, callbackURL?: string) =>
  emails.verifyEmail(user.email, verifyEmailLink(token, callbackURL), env.AUTH_EMAIL_VERIFICATION_TTL);

/** Sends a verification link now; a failed send withdraws it and reports FAILED_TO_SEND_EMAIL. */
export async function sendVerificationNow(user: Pick<User, "id" | "email">, callbackURL?: string): Promise<void> {
  const { payload, options } = verificationTokenFor(user);
  await mailToken("email-verification", payload, options, (token) => verificationMail(user, token, callbackURL));
}

/** Sends a verification link without making the caller wait or fail (sign-up, change of address). */
export function sendVerificationInBackground(user: Pick<User, "id" | "email">, callbackURL?: string): void {
  sendVerificationNow(user, callbackURL).catch(() => {
    // already logged by the mailer
  });
}

/** POST /send-verification-email. Signed out, the answer is the same whether or not the address is known. */
export async function requestVerificationEmail(ctx: RequestContext, input: { email: string; callbackURL?: string }) {
  if (!emailVerificationEnabled()) throw new AuthError("VERIFICATION_EMAIL_ISNT_ENABLED");
  const email = normalizeEmail(input.email);
  const current = await getSession(ctx);
  if (current) {
    if (current.user.email !== email) throw new AuthError("EMAIL_MISMATCH");
    if (current.user.emailVerified) throw new AuthError("EMAIL_ALREADY_VERIFIED");
    await sendVerificationNow(current.user, input.callbackURL);
    return { status: true };
  }
  const user = await db.user.findUnique({ where: { email } });
  if (user && !user.emailVerified) sendVerificationInBackground(user, input.callbackURL);
  return { status: true };
}

/** GET /verify-email: marks the address verified, or applies a confirmed e-mail change. */
export async function verifyEmailToken(ctx: RequestContext, token: string) {
  const payload = await readSignedToken<VerificationPayload | ChangeEmailPayload>(["email-verification", "change-email"], token);
  const user = await db.user.findUnique({ where: { id: payload.userId } });
  // The address the link was sent for must still be the account's address.
  if (!user || user.email !== payload.email) throw new AuthError("USER_NOT_FOUND");
  const current = await getSession(ctx);
  if (current && current.user.id !== user.id) throw new AuthError("UNAUTHORIZED");
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
  const verified = user.emailVerified ? user : await markVerified(user, payload.email);
  if (current) refreshCookieCache(ctx, { session: current.session, user: verified });
  // Only the first use signs in: a used link must not stay a way into the account until its JWT expires.
  else if (env.AUTH_AUTO_SIGN_IN_AFTER_VERIFICATION === "on" && !repeat) await startSession(ctx, verified);
  return { status: true, user: publicUser(verified) };
}

/**
 * Marks the address verified only if it is still the account's address: a change of address between reading
 * the user and this write must not let the old address's link verify the new one.
 */
async function markVerified(user: User, email: string): Promise<User> {
  const { count } = await db.user.updateMany({ where: { id: user.id, email }, data: { emailVerified: true } });
  if (count === 0) throw new AuthError("USER_NOT_FOUND");
  return db.user.findUniqueOrThrow({ where: { id: user.id } });
}

async function applyEmailChange(
  ctx: RequestContext,
  current: SessionWithUser | null,
  user: User,
  payload: ChangeEmailPayload,
  token: string,
) {
  await consumeToken("change-email", token, { signed: true });
  try {
    // Conditional on the address the link confirmed: of two change links followed at once, one applies.
    const { count } = await db.user.updateMany({
      where: { id: user.id, email: payload.email },
      data: { email: payload.newEmail, emailVerified: false },
    });
    if (count === 0) throw new AuthError("USER_NOT_FOUND");
  } catch (error) {
    if (isUniqueViolation(error)) throw new AuthError("COULDNT_UPDATE_YOUR_EMAIL");
    throw error;
  }
  const updated = await db.user.findUniqueOrThrow({ where: { id: user.id } });
  if (current) refreshCookieCache(ctx, { session: current.session, user: updated });
  if (emailVerificationEnabled()) sendVerificationInBackground(updated);
  return { status: true, user: publicUser(updated) };
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
