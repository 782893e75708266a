// Wrong passwords counted per account, across every client address (issue 39 §1,
// docs/decisions/057-account-lockout-by-device.md). Each account has a bucket for its new devices (any browser
// without one of its known-device cookies, ADR 039) and one per known device; an identifier with no account is
// counted under that identifier, with the same limits, so the answers tell nothing. Counted before compared
// (ADR 029): a place is reserved atomically in the shared rateLimit table, the password compared, and the place
// given back when it was right. A spent bucket refuses every attempt before comparing, the right password too.
import { sha256Hex } from "~/auth/core/crypto.server";
import { AuthError } from "~/auth/errors";
import type { RequestContext } from "~/auth/request-context.server";
import { recordFailedSignIn, recordSecurityEvent } from "~/auth/security-events/record.server";
import { DEVICE_COOKIE, presentedDeviceHash } from "~/auth/sign-in/known-device.server";
import { cookiesOfHeader } from "~/auth/core/cookies.server";
import { afterResponse } from "~/background-work.server";
import { lockoutPlaces } from "~/auth/rate-limit/limits.server";
import type { Reservation } from "~/auth/rate-limit/stores.server";
import { passwordHasher, type HasherLane } from "~/auth/sign-in/hasher-queue.server";
import { db } from "~/db.server";
import { env } from "~/env.server";

/**
 * Whose password is being checked: an account, or a typed identifier that has none. `knownDevice`, when the
 * caller's own query already answered it, saves the look-up.
 */
export type PasswordSubject = { userId: string; knownDevice?: boolean } | { identifier: string };

type Seen = Pick<RequestContext, "clientIp" | "userAgent" | "request">;

interface Bucket {
  key: string;
  userId: string | null;
  knownDevice: boolean;
}

// Hashed: the table then holds no address or username, and no key can look like a rate-limit key.
async function bucketOf(ctx: Seen, subject: PasswordSubject): Promise<Bucket> {
  if ("identifier" in subject) return { key: `lockout:${sha256Hex(`id:${subject.identifier}`)}`, userId: null, knownDevice: false };
  const { userId } = subject;
  const deviceHash = presentedDeviceHash(ctx);
  // Only a browser that presents a device cookie can be known; the others need no look-up.
  const known =
    deviceHash && (subject.knownDevice ?? (await db.knownDevice.findUnique({ where: { userId_deviceHash: { userId, deviceHash } }, select: { id: true } })));
  return known
    ? { key: `lockout:${sha256Hex(`user:${userId}|device:${deviceHash}`)}`, userId, knownDevice: true }
    : { key: `lockout:${sha256Hex(`user:${userId}|new`)}`, userId, knownDevice: false };
}

/** The 429 of a spent bucket, with the seconds to its window's end. */
export function accountLocked(retryAfterSeconds: number, scope: "new_devices" | "device" = "new_devices"): AuthError {
  const retryAfter = String(retryAfterSeconds);
  // `reason` words the page (this browser's own bucket or the strangers'); the wire answer is the same.
  return new AuthError("ACCOUNT_TEMPORARILY_LOCKED", { headers: { "Retry-After": retryAfter, "X-Retry-After": retryAfter }, reason: scope });
}

/**
 * A place in the bucket's window while it has some left (a new window once the last has ended). In memory while
 * this process is alone on its database, in the shared table otherwise (ADR 061): no round trip of its own for a
 * lone instance, and still at most `max` compared per bucket and window across instances.
 */
function reserve(key: string): Promise<Reservation> {
  return lockoutPlaces.reserve(key, { max: env.AUTH_LOCKOUT_MAX_FAILURES, windowSeconds: env.AUTH_LOCKOUT_WINDOW_SECONDS });
}

function giveBack(key: string, windowStartedAt: number): Promise<void> {
  return lockoutPlaces.giveBack(key, windowStartedAt);
}

/** Password checks that start a sign-in; every other one is made inside a session, which proved itself. */
const SIGN_IN_METHODS = new Set(["password", "username"]);

/**
 * The hasher's lane (ADR 061): the account's known devices and checks inside a session go first; anyone else —
 * and every identifier without an account, so the lane tells nothing — is a stranger.
 */
function laneOf(method: string, knownDevice: boolean): HasherLane {
  return knownDevice || !SIGN_IN_METHODS.has(method) ? "owner" : "stranger";
}

/** One comparison through the hasher's queue; a stranger's wrong password feeds the surge signal. */
async function compareInLane(lane: HasherLane, compare: () => Promise<boolean>): Promise<boolean> {
  const right = await passwordHasher().run(lane, compare);
  if (!right && lane === "stranger") passwordHasher().noteStrangerFailure();
  return right;
}

/**
 * A sign-in from a browser that presents no device cookie cannot be any account's known device: while the
 * hasher has no room for strangers it is refused here, before the account is even looked up (ADR 061), so a
 * flood of guesses costs less than the lightest read. With proof of work on, its challenge comes first instead
 * (a solved one earns a turn in the queue, and the refusal then comes at the comparison).
 */
export function refuseStrangerWhileHasherBusy(ctx: Pick<RequestContext, "request">): void {
  if (env.AUTH_POW !== "on" && !presentedDeviceHash(ctx)) passwordHasher().refuseIfBusy("stranger");
}

/** The password sign-ins the dispatch may refuse before a Request is made (rate-limit paths: no API prefix). */
const SIGN_IN_PATHS = new Set(["/sign-in/email", "/sign-in/username"]);

/**
 * `refuseStrangerWhileHasherBusy` for the production dispatch, from the raw Cookie header, before any Request
 * is built: a browser that sends no device cookie at all is a stranger to every account. One that sends any is
 * left to the endpoint, which checks the cookie's signature and the account.
 */
export function hasherRefusalBeforeRequest(path: string, cookieHeader: string | undefined): AuthError | null {
  if (env.AUTH_POW === "on" || !SIGN_IN_PATHS.has(path) || cookiesOfHeader(cookieHeader)[DEVICE_COOKIE] !== undefined) return null;
  try {
    passwordHasher().refuseIfBusy("stranger");
    return null;
  } catch (refusal) {
    return refusal as AuthError;
  }
}

/** The in-session password checks whose wrong answers this module records as `sign_in_failed`. */
const RECORDED_HERE = new Set(["change_password", "delete_user", "two_factor_password"]);

export interface PasswordCheck {
  right: boolean;
  /** Whether the browser is one of the account's known devices (false for an identifier without one). */
  knownDevice: boolean;
}

/**
 * One password comparison under the lockout: refused (429 ACCOUNT_TEMPORARILY_LOCKED) before comparing when the
 * bucket is spent; a right password gives its place back, a wrong one stays counted, and the one that took the
 * last place locks the bucket (`account_locked`, which mails the owner: once per lock). Events only for accounts,
 * after the answer. `method` names the check in the events ("password", "username", "change_password", …).
 */
export async function checkPasswordWithLockout(ctx: Seen, subject: PasswordSubject, method: string, compare: () => Promise<boolean>): Promise<PasswordCheck> {
  if (env.AUTH_LOCKOUT === "off") {
    const knownDevice = "userId" in subject && subject.knownDevice === true;
    return { right: await compareInLane(laneOf(method, knownDevice), compare), knownDevice };
  }
  const bucket = await bucketOf(ctx, subject);
  const seen = { clientIp: ctx.clientIp, userAgent: ctx.userAgent };
  const lane = laneOf(method, bucket.knownDevice);
  // A hasher too busy for this lane refuses before anything is counted (ADR 061).
  passwordHasher().refuseIfBusy(lane);
  const reservation = await reserve(bucket.key);
  if (!("place" in reservation)) {
    const { userId } = bucket;
    if (userId) {
      afterResponse(() => recordSecurityEvent(db, { userId, type: "sign_in_blocked", ctx: seen, details: { reason: "locked", method, knownDevice: bucket.knownDevice } }));
    }
    throw accountLocked(reservation.retryAfterSeconds, bucket.knownDevice ? "device" : "new_devices");
  }
  // Compare errors keep the place counted (ADR 029). A right password's place goes back after the answer, so
  // the sign-in waits for no second write. Refused by a busy hasher: not compared, so the place goes back too.
  let right: boolean;
  try {
    right = await compareInLane(lane, compare);
  } catch (error) {
    // Like the per-address 429 it shares, a refusal for load is no event of the account's (ADR 061).
    if (error instanceof AuthError && error.code === "TOO_MANY_REQUESTS") afterResponse(() => giveBack(bucket.key, reservation.windowStartedAt));
    throw error;
  }
  if (right) afterResponse(() => giveBack(bucket.key, reservation.windowStartedAt));
  const { userId } = bucket;
  // A signed-in check's wrong password is a failed sign-in too (issue 39 §1); sign-ins record their own, and a
  // failed "Confirm it's you" is `reverify_failed`.
  if (!right && userId && RECORDED_HERE.has(method)) recordFailedSignIn(seen, { userId }, method, { knownDevice: bucket.knownDevice });
  if (!right && userId && reservation.place >= env.AUTH_LOCKOUT_MAX_FAILURES) {
    const until = new Date(reservation.windowStartedAt + env.AUTH_LOCKOUT_WINDOW_SECONDS * 1000).toISOString();
    const scope = bucket.knownDevice ? "device" : "new_devices";
    afterResponse(() => recordSecurityEvent(db, { userId, type: "account_locked", ctx: seen, details: { scope, until } }));
  }
  // A lock outlives a restart of a lone instance that counts in memory (ADR 061); unknown identifiers' too.
  if (!right && reservation.place >= env.AUTH_LOCKOUT_MAX_FAILURES) {
    afterResponse(() => lockoutPlaces.keepSpent(bucket.key, reservation.windowStartedAt, reservation.place));
  }
  return { right, knownDevice: bucket.knownDevice };
}
