// The second step of a sign-in: a code from the authenticator app, an e-mailed code, or a backup code. Without a
// two-factor cookie, a signed-in user's first TOTP code confirms the setup instead. Every guess is counted before
// its code is compared (guessingAttempt; docs/decisions/029-atomic-guess-counting.md).
import { AuthError } from "~/auth/errors";
import { publicUser } from "~/auth/core/presenters.server";
import type { RequestContext } from "~/auth/request-context.server";
import { getSession, type SessionWithUser } from "~/auth/session/sessions.server";
import { guessWithinBudget } from "~/auth/rate-limit/guess-budget.server";
import { assertOtpOpen, assertSecondFactorAttempt, currentAttempt, failAttempt, finishAttempt, guessingAttempt, hasAttemptCookie } from "~/auth/two-factor/attempt.server";
import { consumeBackupCode } from "~/auth/two-factor/backup-codes.server";
import { MAX_TWO_FACTOR_FAILURES, TWO_FACTOR_OTP_DIGITS, TWO_FACTOR_OTP_SECONDS } from "~/auth/two-factor/constants";
import { confirmEnable } from "~/auth/two-factor/settings.server";
import { checkTotp } from "~/auth/two-factor/totp.server";
import { checkCode, openEntry, randomDigits } from "~/auth/verification.server";
import { db } from "~/db.server";
import { sendMail } from "~/email/mailer.server";
import { emails } from "~/email/templates.server";
import { mailNewDeviceCode } from "~/auth/sign-in/new-device-check.server";

interface CodeInput {
  code: string;
  trustDevice?: boolean;
}

async function secretOf(userId: string): Promise<string | null> {
  return (await db.twoFactor.findUnique({ where: { userId }, select: { secret: true } }))?.secret ?? null;
}

/** POST /two-factor/verify-totp. */
export async function verifyTotp(ctx: RequestContext, input: CodeInput) {
  if (!hasAttemptCookie(ctx.request)) {
    const current = await getSession(ctx);
    if (!current) throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
    return confirmWithTotp(ctx, current, input.code);
  }
  const attempt = await guessingAttempt(ctx, assertSecondFactorAttempt);
  const secret = await secretOf(attempt.user.id);
  if (!secret || !(await checkTotp(attempt.user.id, secret, input.code))) return failAttempt(ctx, attempt);
  return finishAttempt(ctx, attempt, input.trustDevice);
}

/** A signed-in user's TOTP code: the first one switches two-factor on. */
export async function confirmWithTotp(ctx: RequestContext, current: SessionWithUser, code: string) {
  const secret = await secretOf(current.user.id);
  if (!secret) throw new AuthError("TOTP_NOT_ENABLED");
  const right = await guessWithinBudget({ userId: current.user.id }, () => checkTotp(current.user.id, secret, code), Boolean);
  if (!right) throw new AuthError("INVALID_TWO_FACTOR_AUTHENTICATION");
  const user = current.user.twoFactorEnabled ? current.user : await confirmEnable(ctx, current);
  return { token: current.session.token, user: publicUser(user) };
}

/**
 * POST /two-factor/send-otp: a 6-digit code for this attempt, by e-mail; a new one replaces the last. Only where
 * the attempt lists "otp" (ADR 027): the user chose it and the first factor did not rest on the inbox.
 */
export async function sendTwoFactorOtp(ctx: RequestContext) {
  const attempt = await currentAttempt(ctx);
  assertOtpOpen(attempt);
  // A new browser's check mails its own words ("Confirm it's you", ADR 058).
  if (attempt.newDeviceVerification) {
    await mailNewDeviceCode(ctx, attempt.user, attempt.id);
    return { status: true };
  }
  const code = randomDigits(TWO_FACTOR_OTP_DIGITS);
  await openEntry("two-factor-otp", attempt.id, { userId: attempt.user.id }, { ttlSeconds: TWO_FACTOR_OTP_SECONDS, code });
  await sendMail(emails.twoFactorCode(attempt.user.email, code, TWO_FACTOR_OTP_SECONDS));
  return { status: true };
}

/** POST /two-factor/verify-otp. */
export async function verifyTwoFactorOtp(ctx: RequestContext, input: CodeInput) {
  // Refused before a guess is counted when the e-mailed code is not open to this sign-in (ADR 027).
  const attempt = await guessingAttempt(ctx, assertOtpOpen);
  const check = await checkCode("two-factor-otp", attempt.id, input.code, { maxFailures: MAX_TWO_FACTOR_FAILURES });
  if (!check.ok) return failAttempt(ctx, attempt, check.reason === "invalid" ? undefined : check.reason === "spent" ? "exhausted" : check.reason);
  return finishAttempt(ctx, attempt, input.trustDevice);
}

/** POST /two-factor/verify-backup-code: each code works once. */
export async function verifyBackupCode(ctx: RequestContext, input: CodeInput) {
  const attempt = await guessingAttempt(ctx, assertSecondFactorAttempt);
  if (!(await consumeBackupCode(attempt.user.id, input.code))) return failAttempt(ctx, attempt);
  return finishAttempt(ctx, attempt, input.trustDevice);
}
