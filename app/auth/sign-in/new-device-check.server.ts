// New-device verification (issue 39 §3, docs/decisions/058-new-device-verification.md). With
// AUTH_NEW_DEVICE_VERIFICATION=on, a right password from a browser the account has not signed in from (ADR 039),
// on an account without two-factor whose address is verified, starts no session: it opens a two-factor attempt
// whose only method is the e-mailed code, so Better Auth's two-factor wire (and `twoFactorClient()`) finishes it.
// The first-factor door decides when (first-factor.server.ts); finishing is the attempt's (attempt.server.ts).
import { describeDevice } from "~/auth/core/device";
import type { RequestContext } from "~/auth/request-context.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import type { SignInRecord } from "~/auth/session/sessions.server";
import { deviceHashOf } from "~/auth/sign-in/known-device.server";
import { startAttempt } from "~/auth/two-factor/attempt.server";
import { TWO_FACTOR_OTP_DIGITS, TWO_FACTOR_OTP_SECONDS, type SecondFactorMethod } from "~/auth/two-factor/constants";
import { openEntry, randomDigits } from "~/auth/verification.server";
import { db, type User } from "~/db.server";
import { sendMail } from "~/email/mailer.server";
import { emails } from "~/email/templates.server";
import { env } from "~/env.server";

/** What the sign-in answers instead of a session: Better Auth's two-factor redirect, marked for clients that care. */
export interface NewDeviceRedirect {
  twoFactorRedirect: true;
  twoFactorMethods: SecondFactorMethod[];
  newDeviceVerification: true;
}

/**
 * Whether this sign-in must confirm its browser first: the setting is on, the first factor is a password (by
 * e-mail or username) that did not also prove the inbox, the account has no two-factor (its second step is the
 * check) and a verified address (a code to an address nobody proved would prove nothing), and this browser has not
 * signed in to the account before. Gives this browser its device cookie, so the finished sign-in marks it known.
 */
export async function mustConfirmDevice(ctx: RequestContext, user: User, password: { byPassword: boolean; inboxProven?: boolean }): Promise<boolean> {
  if (env.AUTH_NEW_DEVICE_VERIFICATION !== "on" || !password.byPassword || password.inboxProven) return false;
  if (user.twoFactorEnabled || !user.emailVerified) return false;
  const known = await db.knownDevice.findFirst({ where: { userId: user.id, deviceHash: deviceHashOf(ctx) }, select: { id: true } });
  return known === null;
}

/** Opens the check: the attempt (its cookie), the `sign_in_challenged` event, and the code by mail at once. */
export async function startDeviceCheck(
  ctx: RequestContext,
  user: User,
  options: { rememberMe: boolean; signIn: SignInRecord; credentialsVersion: number },
): Promise<NewDeviceRedirect> {
  const attemptId = await startAttempt(ctx, user.id, {
    rememberMe: options.rememberMe,
    methods: ["otp"],
    signIn: { ...options.signIn, twoFactor: false, deviceVerified: true },
    credentialsVersion: options.credentialsVersion,
    newDeviceVerification: true,
  });
  await recordSecurityEvent(db, { userId: user.id, type: "sign_in_challenged", ctx, details: { reason: "new_device", method: options.signIn.method } });
  await mailNewDeviceCode(ctx, user, attemptId);
  return { twoFactorRedirect: true, twoFactorMethods: ["otp"], newDeviceVerification: true };
}

/** A fresh 6-digit code for the check (replacing the last), mailed with the device, client address and time. */
export async function mailNewDeviceCode(ctx: RequestContext, user: Pick<User, "id" | "email">, attemptId: string): Promise<void> {
  const code = randomDigits(TWO_FACTOR_OTP_DIGITS);
  await openEntry("two-factor-otp", attemptId, { userId: user.id }, { ttlSeconds: TWO_FACTOR_OTP_SECONDS, code });
  const seen = { at: new Date(), device: describeDevice(ctx.userAgent), ipAddress: ctx.clientIp === "unknown" ? null : ctx.clientIp };
  await sendMail(emails.newDeviceCode(user.email, code, TWO_FACTOR_OTP_SECONDS, seen));
}
