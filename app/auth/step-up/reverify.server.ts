// "Confirm it's you" (issue 39 §4, docs/decisions/059-step-up-confirm-its-you.md): a signed-in session proves
// again who its user is, with any factor the account has, and is then recently verified (`session.verifiedAt`)
// for the window. Only this session: the others keep their own time. Each guess counts as the same factor's
// guesses do elsewhere (a password in the account's lockout bucket, ADR 057; codes under ADR 029's caps), each
// success is `reverified` and each failure `reverify_failed`. With two-factor on, a password or a mailed code
// alone is one factor: refused before anything is compared (SECOND_FACTOR_REQUIRED).
import type { AuthenticationResponseJSON, AuthenticatorTransport } from "@simplewebauthn/server";
import { CREDENTIAL_PROVIDER, verifyAgainstDecoy, verifyPassword } from "~/auth/account/password.server";
import { AuthError } from "~/auth/errors";
import { verifyPasskeyAssertion } from "~/auth/passkey/authentication.server";
import { rememberChallenge, takeChallenge } from "~/auth/passkey/challenge.server";
import { CEREMONY_TIMEOUT_SECONDS, relyingParty } from "~/auth/passkey/relying-party.server";
import { webauthn } from "~/auth/passkey/webauthn.server";
import { guessWithinBudget } from "~/auth/rate-limit/guess-budget.server";
import type { RequestContext } from "~/auth/request-context.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { checkPasswordWithLockout } from "~/auth/sign-in/password-lockout.server";
import type { ReverifyMethod } from "~/auth/step-up/guard.server";
import { checkTotp } from "~/auth/two-factor/totp.server";
import { checkCode, openEntry, randomDigits } from "~/auth/verification.server";
import { afterResponse } from "~/background-work.server";
import { db } from "~/db.server";
import { sendMail } from "~/email/mailer.server";
import { emails } from "~/email/templates.server";

export const REVERIFY_OTP_DIGITS = 6;
export const REVERIFY_OTP_SECONDS = 5 * 60;
/** Wrong codes an e-mailed code survives, as the sign-in codes (ADR 029); the account's hourly budget caps the rest. */
const REVERIFY_OTP_MAX_FAILURES = 3;

type Status = { status: true };

async function confirmed(ctx: RequestContext, current: SessionWithUser, method: ReverifyMethod): Promise<Status> {
  await db.$transaction(async (tx) => {
    // updateMany: a session ended a moment ago (signed out elsewhere, revoked) confirms nothing.
    const { count } = await tx.session.updateMany({ where: { id: current.session.id }, data: { verifiedAt: new Date() } });
    if (count === 0) throw new AuthError("UNAUTHORIZED");
    await recordSecurityEvent(tx, { userId: current.user.id, type: "reverified", ctx, sessionId: current.session.id, details: { method } });
  });
  return { status: true };
}

function failed(ctx: RequestContext, current: SessionWithUser, method: ReverifyMethod, error: AuthError): never {
  const { id: sessionId, userId } = current.session;
  afterResponse(() => recordSecurityEvent(db, { userId, type: "reverify_failed", ctx, sessionId, details: { method } }));
  throw error;
}

function refuseOneFactorWithTwoFactor(current: SessionWithUser): void {
  if (current.user.twoFactorEnabled) throw new AuthError("SECOND_FACTOR_REQUIRED");
}

/** POST /reverify/password {password}. Wrong: 400 INVALID_PASSWORD, counted in the lockout (issue 39 §1). */
export async function reverifyWithPassword(ctx: RequestContext, current: SessionWithUser, input: { password: string }): Promise<Status> {
  refuseOneFactorWithTwoFactor(current);
  const account = await db.account.findFirst({ where: { userId: current.user.id, providerId: CREDENTIAL_PROVIDER }, select: { password: true } });
  const stored = account?.password;
  if (!stored) {
    await verifyAgainstDecoy(input.password);
    throw new AuthError("CREDENTIAL_ACCOUNT_NOT_FOUND");
  }
  const { right } = await checkPasswordWithLockout(ctx, { userId: current.user.id }, "reverify_password", () => verifyPassword(input.password, stored));
  if (!right) failed(ctx, current, "password", new AuthError("INVALID_PASSWORD"));
  return confirmed(ctx, current, "password");
}

/** POST /reverify/send-otp: a 6-digit code to the account's verified address; a new one replaces the last. */
export async function sendReverifyOtp(current: SessionWithUser): Promise<Status> {
  refuseOneFactorWithTwoFactor(current);
  if (!current.user.emailVerified) throw new AuthError("EMAIL_NOT_VERIFIED");
  const code = randomDigits(REVERIFY_OTP_DIGITS);
  await openEntry("reverify-otp", current.session.id, { userId: current.user.id }, { ttlSeconds: REVERIFY_OTP_SECONDS, code });
  await sendMail(emails.reverifyCode(current.user.email, code, REVERIFY_OTP_SECONDS));
  return { status: true };
}

/** POST /reverify/otp {code}. Wrong: 400 INVALID_OTP; each guess counted before it is compared (ADR 029). */
export async function reverifyWithOtp(ctx: RequestContext, current: SessionWithUser, input: { code: string }): Promise<Status> {
  refuseOneFactorWithTwoFactor(current);
  const check = await guessWithinBudget(
    { userId: current.user.id },
    () => checkCode("reverify-otp", current.session.id, input.code, { maxFailures: REVERIFY_OTP_MAX_FAILURES }),
    (outcome) => outcome.ok,
  );
  if (check.ok) return confirmed(ctx, current, "otp");
  const name = check.reason === "expired" ? "OTP_EXPIRED" : check.reason === "exhausted" || check.reason === "spent" ? "TOO_MANY_ATTEMPTS" : "INVALID_OTP";
  return failed(ctx, current, "otp", new AuthError(name));
}

/** POST /reverify/totp {code}: the authenticator app's code. Wrong: 400 INVALID_CODE, under the account's budget. */
export async function reverifyWithTotp(ctx: RequestContext, current: SessionWithUser, input: { code: string }): Promise<Status> {
  const secret = current.user.twoFactorEnabled
    ? (await db.twoFactor.findUnique({ where: { userId: current.user.id }, select: { secret: true } }))?.secret
    : undefined;
  if (!secret) throw new AuthError("TOTP_NOT_ENABLED");
  const right = await guessWithinBudget({ userId: current.user.id }, () => checkTotp(current.user.id, secret, input.code), Boolean);
  if (!right) failed(ctx, current, "totp", new AuthError("INVALID_CODE"));
  return confirmed(ctx, current, "totp");
}

/**
 * POST /reverify/passkey-options: a challenge for this account's own passkeys only, remembered for this browser.
 * With two-factor on the authenticator must verify the person (a PIN or biometric), which makes it both factors.
 */
export async function reverifyPasskeyOptions(ctx: RequestContext, current: SessionWithUser) {
  const passkeys = await db.passkey.findMany({ where: { userId: current.user.id }, select: { credentialID: true, transports: true } });
  const { generateAuthenticationOptions } = await webauthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty.id,
    allowCredentials: passkeys.map((passkey) => ({
      id: passkey.credentialID,
      ...(passkey.transports ? { transports: passkey.transports.split(",") as AuthenticatorTransport[] } : {}),
    })),
    userVerification: current.user.twoFactorEnabled ? "required" : "preferred",
    timeout: CEREMONY_TIMEOUT_SECONDS * 1000,
  });
  await rememberChallenge(ctx, { userId: current.user.id, kind: "reverify", challenge: options.challenge });
  return options;
}

/** POST /reverify/passkey {response}: an assertion by one of this account's passkeys. Anything else: AUTH_CANCELLED. */
export async function reverifyWithPasskey(ctx: RequestContext, current: SessionWithUser, input: { response: AuthenticationResponseJSON }): Promise<Status> {
  const challenge = await takeChallenge(ctx, "reverify");
  const passkey = await db.passkey.findUnique({ where: { credentialID: input.response.id } });
  if (challenge.userId !== current.user.id || !passkey || passkey.userId !== current.user.id) {
    return failed(ctx, current, "passkey", new AuthError("AUTH_CANCELLED"));
  }
  try {
    await verifyPasskeyAssertion(passkey, input.response, challenge.challenge, { requireUserVerification: current.user.twoFactorEnabled });
  } catch (error) {
    if (error instanceof AuthError) failed(ctx, current, "passkey", error);
    throw error;
  }
  return confirmed(ctx, current, "passkey");
}
