// A sign-in waiting for its second factor: a verification entry found by a random id that a short-lived signed
// cookie carries. It counts guesses before they are compared (the fifth wrong one ends it) and is used up by the
// first right one (docs/decisions/029-atomic-guess-counting.md). It records which second factors the first factor
// left open (app/auth/sign-in/first-factor.server.ts, ADR 027).
import { randomToken, sign, unsign } from "~/auth/core/crypto.server";
import { AuthError } from "~/auth/errors";
import { publicUser } from "~/auth/core/presenters.server";
import type { RequestContext } from "~/auth/request-context.server";
import { cookieName, requestCookies, setCookie } from "~/auth/core/cookies.server";
import { startSession, type SignInRecord } from "~/auth/session/sessions.server";
import { recordFailedSignIn } from "~/auth/security-events/record.server";
import { MAX_TWO_FACTOR_FAILURES, TWO_FACTOR_ATTEMPT_SECONDS, type SecondFactorMethod } from "~/auth/two-factor/constants";
import { trustThisDevice } from "~/auth/two-factor/trusted-device.server";
import { giveBackAccountGuess, takeAccountGuess, type AccountGuess } from "~/auth/rate-limit/guess-budget.server";
import { openEntry, readEntry, reserveGuess, settleWrongGuess, takeEntry, type ReservedGuess } from "~/auth/verification.server";
import { db, type User } from "~/db.server";
import { metrics } from "~/observability/metrics.server";

export const TWO_FACTOR_COOKIE = cookieName("two_factor");
const PURPOSE = "two_factor";

interface AttemptPayload {
  userId: string;
  rememberMe: boolean;
  /** Absent on attempts opened before ADR 027: those get the authenticator app alone. */
  methods?: SecondFactorMethod[];
  /** How the first factor was given, for the `sign_in` event recorded when the second step succeeds (ADR 048). */
  signIn?: SignInRecord;
  /** The account's credentials version read with the first factor (ADR 055); absent on older attempts: 0. */
  credentialsVersion?: number;
  /** Opened for a right password from a new browser (ADR 058): only the e-mailed code finishes it. */
  newDeviceVerification?: boolean;
}

export interface Attempt {
  id: string;
  user: User;
  rememberMe: boolean;
  /** The second factors this sign-in may finish with (backup codes always). */
  methods: SecondFactorMethod[];
  signIn: SignInRecord;
  /** The credentials version the first factor was checked against: the session starts only if it has not moved. */
  credentialsVersion: number;
  /** A new browser's check, not a second factor (ADR 058): the account has no two-factor; only "otp" is open. */
  newDeviceVerification: boolean;
  /** Set by `guessingAttempt`: the guess this request may compare, counted against the attempt and the account. */
  guess?: { reserved: ReservedGuess; account: AccountGuess };
}

const methodsOf = (payload: AttemptPayload): SecondFactorMethod[] => payload.methods ?? ["totp"];
/**
 * Attempts opened before ADR 048 carry no record of their first factor: a password, as they then were. A new
 * browser's check (ADR 058) is no second factor: the account has none.
 */
const signInOf = (payload: AttemptPayload): SignInRecord => ({
  ...(payload.signIn ?? { method: "password", device: "mark" }),
  twoFactor: payload.newDeviceVerification !== true,
});

/** Opened by the first-factor door only (app/auth/sign-in/first-factor.server.ts). */
export async function startAttempt(
  ctx: RequestContext,
  userId: string,
  options: { rememberMe: boolean; methods: SecondFactorMethod[]; signIn: SignInRecord; credentialsVersion: number; newDeviceVerification?: boolean },
): Promise<string> {
  const id = randomToken(32);
  const payload: AttemptPayload = {
    userId,
    rememberMe: options.rememberMe,
    methods: options.methods,
    signIn: options.signIn,
    credentialsVersion: options.credentialsVersion,
    ...(options.newDeviceVerification ? { newDeviceVerification: true } : {}),
  };
  await openEntry<AttemptPayload>("two-factor-attempt", id, payload, { ttlSeconds: TWO_FACTOR_ATTEMPT_SECONDS });
  setCookie(ctx, TWO_FACTOR_COOKIE, sign(id, PURPOSE), TWO_FACTOR_ATTEMPT_SECONDS);
  return id;
}

export function hasAttemptCookie(request: Request): boolean {
  return Boolean(requestCookies(request)[TWO_FACTOR_COOKIE]);
}

function clearAttemptCookie(ctx: RequestContext): void {
  setCookie(ctx, TWO_FACTOR_COOKIE, "", 0);
}

/** The attempt this browser's cookie names, or 401 "invalid two factor cookie". */
export async function currentAttempt(ctx: RequestContext): Promise<Attempt> {
  const signed = requestCookies(ctx.request)[TWO_FACTOR_COOKIE];
  const id = signed ? unsign(signed, PURPOSE) : null;
  const entry = id ? await readEntry<AttemptPayload>("two-factor-attempt", id) : null;
  const user = entry ? await db.user.findUnique({ where: { id: entry.payload.userId } }) : null;
  if (!id || !entry || !user) {
    if (signed) clearAttemptCookie(ctx);
    throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
  }
  return {
    id,
    user,
    rememberMe: entry.payload.rememberMe,
    methods: methodsOf(entry.payload),
    signIn: signInOf(entry.payload),
    credentialsVersion: entry.payload.credentialsVersion ?? 0,
    newDeviceVerification: entry.payload.newDeviceVerification === true,
  };
}

/** The second factors this browser's sign-in may finish with, or null without an open attempt (for the page). */
export async function openAttemptMethods(request: Request): Promise<SecondFactorMethod[] | null> {
  return (await openAttemptKind(request))?.methods ?? null;
}

/** `openAttemptMethods`, and whether the attempt is a new browser's check (ADR 058), for the page's words. */
export async function openAttemptKind(request: Request): Promise<{ methods: SecondFactorMethod[]; newDeviceVerification: boolean } | null> {
  const signed = requestCookies(request)[TWO_FACTOR_COOKIE];
  const id = signed ? unsign(signed, PURPOSE) : null;
  const entry = id ? await readEntry<AttemptPayload>("two-factor-attempt", id) : null;
  return entry ? { methods: methodsOf(entry.payload), newDeviceVerification: entry.payload.newDeviceVerification === true } : null;
}

/** send-otp and verify-otp: 400 "OTP not enabled" unless this sign-in may finish with an e-mailed code. */
export function assertOtpOpen(attempt: Attempt): void {
  if (!attempt.methods.includes("otp")) throw new AuthError("OTP_NOT_ENABLED");
}

/** verify-totp and verify-backup-code: a new browser's check (ADR 058) is for an account without two-factor. */
export function assertSecondFactorAttempt(attempt: Attempt): void {
  if (attempt.newDeviceVerification) throw new AuthError("TWO_FACTOR_ISNT_ENABLED");
}

/**
 * Whether this browser's sign-in still waits for its second factor. A page asks after a refused code, which the
 * API answers the same whether or not it was the fifth (the one that ends the attempt).
 */
export async function attemptIsOpen(ctx: RequestContext): Promise<boolean> {
  const signed = requestCookies(ctx.request)[TWO_FACTOR_COOKIE];
  const id = signed ? unsign(signed, PURPOSE) : null;
  return id !== null && (await readEntry<AttemptPayload>("two-factor-attempt", id)) !== null;
}

/**
 * The attempt this browser's cookie names, with one guess counted before any code is compared: first out of the
 * account's budget (429 once spent), then one of the attempt's five, by one conditional statement. A guess that
 * gets neither is refused uncompared, so of any number sent at once at most five are ever compared.
 */
export async function guessingAttempt(ctx: RequestContext, allowed?: (attempt: Attempt) => void): Promise<Attempt> {
  const attempt = await currentAttempt(ctx);
  allowed?.(attempt); // a refusal here (a method this sign-in does not offer) counts no guess
  const account = await takeAccountGuess({ userId: attempt.user.id });
  const reservation = await reserveGuess("two-factor-attempt", attempt.id, MAX_TWO_FACTOR_FAILURES);
  if (!reservation.ok) {
    // Never compared, so not a wrong guess of the account's (the attempt, not the address, is what is known).
    await giveBackAccountGuess(account);
    // Its five guesses are taken by requests still being compared: refused as the fifth wrong one would be.
    if (reservation.reason === "spent") throw new AuthError("INVALID_TWO_FACTOR_AUTHENTICATION");
    clearAttemptCookie(ctx);
    throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
  }
  return { ...attempt, guess: { reserved: reservation.guess, account } };
}

/** A wrong code: it stays counted, and the attempt is over at the fifth. */
export async function failAttempt(ctx: RequestContext, attempt: Attempt, reason?: CodeProblem): Promise<never> {
  let reserved = attempt.guess?.reserved;
  if (!reserved) {
    // Compared without a reservation (not by this module's callers): counted now, late but counted.
    const reservation = await reserveGuess("two-factor-attempt", attempt.id, MAX_TWO_FACTOR_FAILURES);
    reserved = reservation.ok ? reservation.guess : undefined;
  }
  const open = reserved ? await settleWrongGuess(reserved) : false;
  recordFailedSignIn(ctx, { userId: attempt.user.id }, attempt.newDeviceVerification ? "new_device" : "two_factor");
  metrics.signIn(attempt.signIn.method, "two_factor_failure");
  if (!open) clearAttemptCookie(ctx);
  throw new AuthError("INVALID_TWO_FACTOR_AUTHENTICATION", { reason });
}

/** Why an e-mailed code was refused, for the page's words (the API says "invalid two factor authentication"). */
export type CodeProblem = "expired" | "exhausted" | "missing";

/** A right code: the attempt is used up (once, even for two answers at once) and the session starts. */
export async function finishAttempt(ctx: RequestContext, attempt: Attempt, trustDevice: boolean | undefined) {
  if (attempt.guess) await giveBackAccountGuess(attempt.guess.account); // a right code costs the account nothing
  const won = await takeEntry("two-factor-attempt", attempt.id);
  clearAttemptCookie(ctx);
  if (!won) throw new AuthError("INVALID_TWO_FACTOR_COOKIE");
  // Not the first-factor door: this is its second half. The door opened this attempt after the first factor
  // (and its verified-address check), and the second factor was just given.
  // The sign-in counts (its event is recorded, its device marked new or known) once the second step succeeds.
  // A revocation since the first factor (a reset, a claim, "This wasn't me") ends the attempt with it (ADR 055).
  const { session, user } = await startSession(ctx, attempt.user, {
    rememberMe: attempt.rememberMe,
    signIn: attempt.signIn,
    credentialsVersion: attempt.credentialsVersion,
    refusal: "INVALID_TWO_FACTOR_COOKIE",
  });
  // The sign-in the door counted as two_factor_required, now a success under its first factor's method.
  metrics.signIn(attempt.signIn.method, "success");
  // A new browser's check makes the browser known (startSession marks it); there is no second factor to skip.
  if (trustDevice && !attempt.newDeviceVerification) await trustThisDevice(ctx, user.id);
  return { token: session.token, user: publicUser(user) };
}
