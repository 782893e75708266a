// The one door after a first factor (docs/decisions/027-second-factor-independence.md). Every way of proving who
// one is — a password by e-mail or username, an e-mailed sign-in code, a social provider (its redirect and the
// ID-token path), a passkey, and the verification link's automatic sign-in — ends in `finishFirstFactor`, which
// decides, in this order:
//   0. a banned account is refused (BANNED_USER; an ended ban is cleared, ADR 049);
//   1. an address that must be verified first (AUTH_EMAIL_VERIFICATION=required), whatever the first factor: mail
//      the link, bind it to this browser, refuse with EMAIL_NOT_VERIFIED;
//   2. the two-factor gate: a user with two-factor on gets an attempt naming the second factors this first factor
//      leaves open, unless this browser is a trusted device (a passkey that verified the person is both factors);
//   3. a new browser's check (AUTH_NEW_DEVICE_VERIFICATION=on, ADR 058): a password from a browser new to an
//      account without two-factor, with a verified address, gets the same attempt with a mailed code instead;
//   4. the session, under the user row's lock, only if no revocation moved the account's credentials version since
//      the first factor read it (ADR 055); else the door's answer to a wrong credential.
// The few other places a session starts say why they may skip this door by the name they call it through
// (below), or at the call (finishing a two-factor attempt, app/auth/two-factor/attempt.server.ts).
import {
  bindVerificationToBrowser,
  emailVerificationRequired,
  sendVerificationInBackground,
} from "~/auth/sign-in/verification-link.server";
import { AuthError, type ErrorName } from "~/auth/errors";
import { refuseBannedUser } from "~/auth/admin/bans.server";
import { CREDENTIAL_PROVIDER } from "~/auth/account/password.server";
import { publicUser } from "~/auth/core/presenters.server";
import type { RequestContext } from "~/auth/request-context.server";
import { startSession, type SessionWithUser, type SignInRecord, type StartedSession } from "~/auth/session/sessions.server";
import { startAttempt } from "~/auth/two-factor/attempt.server";
import type { SecondFactorMethod } from "~/auth/two-factor/constants";
import { isTrustedDevice } from "~/auth/two-factor/trusted-device.server";
import { rememberCreatingDevice } from "~/auth/sign-in/known-device.server";
import { mustConfirmDevice, startDeviceCheck } from "~/auth/sign-in/new-device-check.server";
import { db, type User } from "~/db.server";
import { metrics, type SignInMethod, type SignInOutcome } from "~/observability/metrics.server";

/** What was proven, and the choices the person made with it. */
export type FirstFactor = {
  rememberMe?: boolean;
  callbackURL?: string;
  /** This sign-in created the account (a first e-mailed code, a first provider sign-in): this browser is its first device. */
  newAccount?: boolean;
  /** This request proved the inbox as well (the verification link's "That was me"): a mailed code adds nothing. */
  inboxProven?: boolean;
} & (
  | { method: "password" }
  | { method: "username" }
  | { method: "email-otp" }
  | { method: "social"; /** The provider's id and configured display name, for the security event. */ provider: string; providerName: string }
  | { method: "passkey"; /** The authenticator checked the person (PIN, biometrics): WebAuthn's UV flag. */ userVerified: boolean }
  | { method: "verification-link" }
);

/** Better Auth 1.7's answer when the second step is due: which ways it can be given (backup codes always). */
export interface TwoFactorRedirect {
  twoFactorRedirect: true;
  twoFactorMethods: SecondFactorMethod[];
  /** Our mark on a new browser's check (ADR 058): only "otp" is listed, and the account has no two-factor. */
  newDeviceVerification?: true;
}

/** A session, marked with whether this browser had signed in to the account before (known-device.server.ts). */
export type SignedIn = StartedSession & { twoFactorRedirect?: undefined };

export type FirstFactorOutcome = TwoFactorRedirect | SignedIn;

/**
 * Finishes a proven first factor: EMAIL_NOT_VERIFIED, the second step, or the session. Every sign-in passes
 * here, pages and API alike, so here its outcome is counted (latchkey_sign_ins_total, ADR 062); the wrong
 * credentials that never reach the door are counted where they are refused.
 */
export async function finishFirstFactor(ctx: RequestContext, user: User, factor: FirstFactor): Promise<FirstFactorOutcome> {
  const method = signInMethodOf(factor);
  try {
    const outcome = await passTheDoor(ctx, user, factor);
    metrics.signIn(method, outcome.twoFactorRedirect ? "two_factor_required" : "success");
    return outcome;
  } catch (error) {
    const counted = refusalOutcome(error, factor);
    if (counted) metrics.signIn(method, counted);
    throw error;
  }
}

/** What a refusal at the door counts as; an unverified address is no outcome of the sign-in's own. */
function refusalOutcome(error: unknown, factor: FirstFactor): SignInOutcome | null {
  if (!(error instanceof AuthError)) return null;
  if (error.code === "BANNED_USER") return "locked";
  return error.code === wrongCredentialAnswer(factor) ? "failure" : null;
}

async function passTheDoor(ctx: RequestContext, user: User, factor: FirstFactor): Promise<FirstFactorOutcome> {
  // 0. A banned account, before anything is mailed or a second step offered (startSession checks again).
  await refuseBannedUser(user);
  const mustVerify = emailVerificationRequired() && !user.emailVerified;
  // This browser proved the password or a linked provider identity of an unverified account (or is sent its link
  // now): whoever proves the inbox here holds both, so is the person who set it up, and the first proof claims
  // nothing (docs/decisions/028-claim-on-proof.md). A provider's new account is bound here too, like a sign-up.
  const bindsBrowser = factor.method === "password" || factor.method === "username" || factor.method === "social";
  if (!user.emailVerified && (mustVerify || bindsBrowser)) bindVerificationToBrowser(ctx, user.id);
  if (mustVerify) {
    // Only after the factor was proven, so this reveals nothing to someone who could not prove it. A provider is
    // no exception any more (issue 37): an account it created from an address it vouched for is verified, and an
    // address no proof has reached stays unverified whichever way in was used.
    sendVerificationInBackground(user, factor.callbackURL);
    // The browser that just created the account is its first device, as after a password sign-up in this mode.
    if (factor.newAccount) await rememberCreatingDevice(ctx, user.id);
    throw new AuthError("EMAIL_NOT_VERIFIED");
  }
  if (user.twoFactorEnabled) {
    if (factor.method === "passkey") {
      // A passkey that checked the person is two factors in one (something held, something known or been). One
      // that did not (UV=0) is possession alone, and this account asked for two: refused (ADR 027).
      if (!factor.userVerified) throw new AuthError("AUTH_CANCELLED");
    } else if (!(await isTrustedDevice(ctx, user.id))) {
      const twoFactorMethods = await openSecondFactors(user.id, factor);
      // The attempt carries the credentials version read with the first factor: a revocation before the second
      // step ends it too (ADR 055).
      await startAttempt(ctx, user.id, {
        rememberMe: factor.rememberMe !== false,
        methods: twoFactorMethods,
        signIn: signInRecord(factor, true),
        credentialsVersion: user.credentialsVersion,
      });
      return { twoFactorRedirect: true, twoFactorMethods };
    }
  }
  // 3. A right password from a browser new to an account without two-factor confirms the browser by mail first.
  const byPassword = factor.method === "password" || factor.method === "username";
  if (await mustConfirmDevice(ctx, user, { byPassword, inboxProven: factor.inboxProven })) {
    return startDeviceCheck(ctx, user, {
      rememberMe: factor.rememberMe !== false,
      signIn: signInRecord(factor, false),
      credentialsVersion: user.credentialsVersion,
    });
  }
  // With two-factor on, a passkey that checked the person or a trusted device stands for the second step.
  return startSession(ctx, user, { rememberMe: factor.rememberMe, signIn: signInRecord(factor, user.twoFactorEnabled), refusal: wrongCredentialAnswer(factor) });
}

/**
 * What each door answers a wrong credential, also given when the credential was revoked while the sign-in was in
 * flight (ADR 055: `user.credentialsVersion`, read with the first factor, moved before the session started).
 */
function wrongCredentialAnswer(factor: Pick<FirstFactor, "method">): ErrorName {
  switch (factor.method) {
    case "password":
      return "INVALID_EMAIL_OR_PASSWORD";
    case "username":
      return "INVALID_USERNAME_OR_PASSWORD";
    case "passkey":
      return "AUTH_CANCELLED";
    case "email-otp":
      return "INVALID_OTP";
    case "verification-link":
      return "INVALID_TOKEN";
    case "social":
      return "FAILED_TO_GET_USER_INFO";
  }
}

/** The security events' word for a first factor (issue 29's method strings). */
function signInMethodOf(factor: Pick<FirstFactor, "method">): SignInMethod {
  switch (factor.method) {
    case "email-otp":
      return "email_otp";
    case "verification-link":
      return "verification_link";
    default:
      return factor.method;
  }
}

/** How the `sign_in` event names this first factor (issue 29's method strings). */
function signInRecord(factor: FirstFactor, twoFactor: boolean): SignInRecord {
  const device = factor.newAccount ? "creating" : "mark";
  switch (factor.method) {
    case "email-otp":
      return { method: "email_otp", twoFactor, device };
    case "verification-link":
      return { method: "verification_link", twoFactor, device };
    case "social":
      return { method: "social", provider: factor.provider, providerName: factor.providerName, twoFactor, device };
    default:
      return { method: factor.method, twoFactor, device };
  }
}

/**
 * The second factors a sign-in may finish with after this first factor: the authenticator app always; a code by
 * e-mail only when the user chose it and the first factor did not itself rest on the inbox, since the e-mailed
 * code would then prove the same thing twice.
 */
export async function openSecondFactors(userId: string, factor: FirstFactor): Promise<SecondFactorMethod[]> {
  const row = await db.twoFactor.findUnique({ where: { userId }, select: { otpEnabled: true } });
  if (!row?.otpEnabled || (await restsOnInbox(userId, factor))) return ["totp"];
  return ["totp", "otp"];
}

/**
 * Whether whoever holds the inbox could have given this first factor: an e-mailed code or link proves the inbox
 * itself; a password last set by an e-mailed reset is one the inbox's holder could have chosen; a provider
 * account can as a rule be recovered through (or is) the same mailbox. A password set otherwise, or a passkey,
 * does not rest on the inbox.
 */
async function restsOnInbox(userId: string, factor: FirstFactor): Promise<boolean> {
  switch (factor.method) {
    case "email-otp":
    case "verification-link":
    case "social":
      return true;
    case "password":
    case "username": {
      const account = await db.account.findFirst({ where: { userId, providerId: CREDENTIAL_PROVIDER }, select: { passwordResetByEmail: true } });
      return account?.passwordResetByEmail !== false;
    }
    case "passkey":
      return false;
  }
}

/** `/sign-in/email` and `/sign-in/username`'s answer: the session, or the second step when it is due. */
export function signInAnswer(outcome: FirstFactorOutcome, callbackURL: string | undefined) {
  if (outcome.twoFactorRedirect) return outcome;
  return { redirect: Boolean(callbackURL), token: outcome.session.token, url: callbackURL, user: publicUser(outcome.user) };
}

/**
 * A session for an account created a moment ago by this request (sign-up by password or by passkey): nothing
 * can be set up on it yet — no second factor, no unverified address to refuse (the sign-up decided that) — so
 * there is no door to go through. This browser becomes the account's first device (its sign-ins here are not "new").
 */
export async function startSessionForNewAccount(ctx: RequestContext, user: User, options: { rememberMe?: boolean; method: "password" | "passkey" }) {
  return startSession(ctx, user, { rememberMe: options.rememberMe, signIn: { method: options.method, twoFactor: false, device: "creating" } });
}

/**
 * "Change password and sign out other devices": the signed-in person proved the current password inside a
 * session that already went through the door, and this session replaces the ones just ended. It is no new
 * sign-in, so it keeps the replaced session's sign-in time (ADR 030: it must not reset the recent-sign-in clock)
 * and its last confirmation (ADR 059: a step-up just given is not asked for again).
 */
export function replaceSessionAfterPasswordChange(ctx: RequestContext, current: SessionWithUser, credentialsVersion: number) {
  // `credentialsVersion`: the change's own (it revoked the old password); a revocation after it refuses this too.
  return startSession(ctx, current.user, { signedInAt: current.session.createdAt, verifiedAt: current.session.verifiedAt, credentialsVersion });
}
