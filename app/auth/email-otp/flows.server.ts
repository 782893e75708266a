// The e-mail one-time code flows: sending a code, signing in with it (creating the account unless
// AUTH_EMAIL_OTP_SIGN_UP=off), verifying the address, and resetting the password. See
// docs/decisions/020-email-otp-and-usernames.md.
import { languageOfSignInPage } from "~/i18n/choose.server";
import { normalizeEmail } from "~/auth/core/email-address";
import { newId } from "~/auth/core/crypto.server";
import { mailCode, verifyCode } from "~/auth/email-otp/codes.server";
import type { OtpType } from "~/auth/email-otp/schemas";
import { AuthError } from "~/auth/errors";
import { assertPasswordLength, hashPassword } from "~/auth/account/password.server";
import { isPasswordCompromised, refuseCompromisedPassword } from "~/auth/password-policy/check.server";
import { publicUser } from "~/auth/core/presenters.server";
import { replacePassword } from "~/auth/account/password-flows.server";
import type { RequestContext } from "~/auth/request-context.server";
import { requireProofUnderBurst } from "~/auth/proof-of-work/gate.server";
import { finishFirstFactor } from "~/auth/sign-in/first-factor.server";
import { recordFailedSignIn } from "~/auth/security-events/record.server";
import { countRefusedSignIn } from "~/observability/sign-ins.server";
import { metrics } from "~/observability/metrics.server";
import { proveInbox } from "~/auth/account/claim.server";
import { isBanned } from "~/auth/admin/bans.server";
import { db, isUniqueViolation, type User } from "~/db.server";
import { env } from "~/env.server";

/**
 * POST /email-otp/send-verification-otp: `{success: true}` whether or not the address has an account. The code
 * is made and mailed after the answer is decided, without waiting for SMTP.
 */
export async function sendVerificationOtp(input: { email: string; type: OtpType }) {
  const email = normalizeEmail(input.email);
  const user = await db.user.findUnique({ where: { email }, select: { id: true } });
  const send = input.type === "sign-in" ? Boolean(user) || env.AUTH_EMAIL_OTP_SIGN_UP === "on" : Boolean(user);
  if (send) mailCode(email, input.type).catch(() => {}); // a failure is logged by the mailer
  return { success: true };
}

/**
 * The code proved the inbox. An account nobody had proven an address of may hold things its creator set up
 * (a password, sessions, a second factor, linked sign-ins): the claim ends all of it, once, so that
 * pre-registering someone else's address leaves no way in (docs/decisions/028-claim-on-proof.md).
 */
/** The requests whose code sign-in created the account (the page then says so and asks for a name). */
const createdByRequest = new WeakSet<RequestContext>();

/** Whether this request's code sign-in created the account it signed in to. */
export function accountCreatedBy(ctx: RequestContext): boolean {
  return createdByRequest.has(ctx);
}

async function findOrCreateUser(ctx: RequestContext, email: string): Promise<{ user: User; created: boolean }> {
  const existing = await db.user.findUnique({ where: { email } });
  if (existing) {
    // A banned account is refused before its inbox is proven: the claim would end its password and more for a
    // sign-in that starts nothing (issue 41). The door refuses it again (first-factor.server.ts).
    if (!existing.emailVerified && isBanned(existing)) throw new AuthError("BANNED_USER");
    return { user: existing.emailVerified ? existing : (await proveInbox(ctx, existing.id, email)).user, created: false };
  }
  if (env.AUTH_EMAIL_OTP_SIGN_UP !== "on") throw new AuthError("INVALID_OTP");
  try {
    const user = await db.user.create({ data: { id: newId(), name: "", email, emailVerified: true, inboxProvenAt: new Date(), locale: await languageOfSignInPage(ctx.request) } });
    createdByRequest.add(ctx);
    metrics.signUp("email_otp");
    return { user, created: true };
  } catch (error) {
    // Two code sign-ins for a new address at once: one creates the account, the other uses it.
    if (isUniqueViolation(error)) return { user: await db.user.findUniqueOrThrow({ where: { email } }), created: false };
    throw error;
  }
}

/** POST /sign-in/email-otp: `{token, user}` and the session, or `{twoFactorRedirect: true}`. */
export async function signInWithEmailOtp(ctx: RequestContext, input: { email: string; otp: string; rememberMe?: boolean }) {
  const email = await verifyCode(input.email, "sign-in", input.otp).catch((error) => {
    // A wrong code is the owner's to know when the address has an account; looked up after the answer.
    if (error instanceof AuthError && error.code === "INVALID_OTP") recordFailedSignIn(ctx, { email: normalizeEmail(input.email) }, "email_otp");
    countRefusedSignIn("email_otp", error);
    throw error;
  });
  const { user, created } = await findOrCreateUser(ctx, email).catch((error) => {
    countRefusedSignIn("email_otp", error);
    throw error;
  });
  const outcome = await finishFirstFactor(ctx, user, { method: "email-otp", rememberMe: input.rememberMe, newAccount: created });
  if (outcome.twoFactorRedirect) return outcome;
  return { token: outcome.session.token, user: publicUser(outcome.user) };
}

/** POST /email-otp/verify-email: the code proved the inbox; the address is verified (claiming a never-proven account). */
export async function verifyEmailWithOtp(ctx: RequestContext, input: { email: string; otp: string }) {
  const email = await verifyCode(input.email, "email-verification", input.otp);
  const user = await db.user.findUnique({ where: { email } });
  if (!user) throw new AuthError("INVALID_OTP");
  const verified = user.emailVerified ? user : (await proveInbox(ctx, user.id, email)).user;
  return { status: true, token: null, user: publicUser(verified) };
}

/** POST /email-otp/check-verification-otp: whether the code is right, without using it up (wrong ones count). */
export async function checkVerificationOtp(input: { email: string; type: OtpType; otp: string }) {
  await verifyCode(input.email, input.type, input.otp, { keep: true });
  return { success: true };
}

/** POST /email-otp/request-password-reset (and /forget-password/email-otp). */
/**
 * A code asked for by a visitor through the API: a reset code is a reset request, so under a burst it needs a
 * solved challenge first (issue 39 §5, ADR 060). Sign-in and verification codes never do: a mailed code is a way in
 * that stays open during a burst.
 */
export async function sendVerificationOtpAsVisitor(ctx: RequestContext, input: { email: string; type: OtpType }) {
  if (input.type === "forget-password") await requireProofUnderBurst(ctx, { email: normalizeEmail(input.email) }, "reset");
  return sendVerificationOtp(input);
}

/** POST /email-otp/request-password-reset from a visitor: the challenge under a burst first, as any reset request. */
export async function requestPasswordResetOtpAsVisitor(ctx: RequestContext, input: { email: string }) {
  await requireProofUnderBurst(ctx, { email: normalizeEmail(input.email) }, "reset");
  return requestPasswordResetOtp(input);
}

export async function requestPasswordResetOtp(input: { email: string }) {
  return sendVerificationOtp({ email: input.email, type: "forget-password" });
}

/**
 * POST /email-otp/reset-password: the code proves the inbox (claiming a never-proven account); the new password
 * replaces any old one.
 */
export async function resetPasswordWithOtp(ctx: RequestContext, input: { email: string; otp: string; password: string }) {
  assertPasswordLength(input.password); // before the code is used up
  if (await isPasswordCompromised(input.password)) {
    // Refused with the code still unused (issue 39 §2); checked first (a wrong one counts, as ever), so only
    // whoever holds the code is told, and only then is the refusal recorded on the account.
    const email = await verifyCode(input.email, "forget-password", input.otp, { keep: true });
    const user = await db.user.findUnique({ where: { email }, select: { id: true } });
    if (!user) throw new AuthError("INVALID_OTP");
    await refuseCompromisedPassword({ ctx, userId: user.id, flow: "reset" });
  }
  // Hashed before the code is checked, so anyone may ask for it: a stranger's turn at the hasher (ADR 061).
  const passwordHash = await hashPassword(input.password, "stranger");
  const email = await verifyCode(input.email, "forget-password", input.otp);
  const user = await db.user.findUnique({ where: { email }, select: { id: true } });
  if (!user) throw new AuthError("INVALID_OTP");
  await replacePassword(ctx, user.id, email, passwordHash);
  return { success: true };
}
