// Sessions are database rows behind a signed cookie (docs/decisions/003-sessions.md): revocable, listable, and
// extended when read after the update age. An optional signed cookie cache lets GET /get-session answer without
// the database for AUTH_COOKIE_CACHE_MAX_AGE seconds.
import {
  clearCookie,
  cookieName,
  cookiesOfHeader,
  readSignedCookie,
  requestCookies,
  setCookie,
  setSignedCookie,
  SIGN_UP_BROWSER_COOKIE,
} from "~/auth/core/cookies.server";
import { randomToken, sign, unsign } from "~/auth/core/crypto.server";
import { AuthError, type ErrorName } from "~/auth/errors";
import { refuseBannedInTransaction } from "~/auth/admin/bans.server";
import { promoteIfConfigured } from "~/auth/admin/bootstrap.server";
import type { RequestContext } from "~/auth/request-context.server";
import { sessionWithUserOnTheWire, type SessionWithUserOnTheWire } from "~/auth/core/presenters.server";
import { noteUser } from "~/observability/request-note.server";
import { cachedSessionWithUser, readSessionWithUser } from "~/auth/session/cached-read.server";
import { insertSession } from "~/auth/session/store.server";
import { deviceHashOf, markDevice } from "~/auth/sign-in/known-device.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import type { SignInMethod } from "~/auth/security-events/words";
import { db, type Session, type User } from "~/db.server";
import { env } from "~/env.server";
import { keepLanguage } from "~/i18n/choose.server";

export const COOKIE_NAMES = {
  sessionToken: cookieName("session_token"),
  sessionData: cookieName("session_data"),
  /** Better Auth's marker of a "don't remember me" sign-in. Kept for its clients; the session row decides. */
  dontRemember: cookieName("dont_remember"),
} as const;

/** Spec §9: a cookie cache larger than this is not set (browsers drop cookies over ~4 KB). */
export const COOKIE_CACHE_SIZE_LIMIT = 4093;
const SESSION_TOKEN_LENGTH = 32;
/** A session the user chose not to remember lives one day at most and is never extended. */
const UNREMEMBERED_SESSION_SECONDS = 24 * 60 * 60;

/** Read-only: a signed-in read may be the session cache's own (frozen) objects, shared by every request. */
export interface SessionWithUser {
  readonly session: Readonly<Session>;
  readonly user: Readonly<User>;
}

export function clearSessionCookies(ctx: RequestContext): void {
  for (const name of Object.values(COOKIE_NAMES)) clearCookie(ctx, name);
}

/** Max-Age for the session cookie: none (a browser-session cookie) when the user chose not to be remembered. */
function cookieMaxAge(session: Session): number | undefined {
  if (!session.rememberMe) return undefined;
  return Math.max(0, Math.round((session.expiresAt.getTime() - Date.now()) / 1000));
}

function writeSessionCookies(ctx: RequestContext, data: SessionWithUser) {
  setSignedCookie(ctx, COOKIE_NAMES.sessionToken, data.session.token, "session", cookieMaxAge(data.session));
  if (!data.session.rememberMe) setSignedCookie(ctx, COOKIE_NAMES.dontRemember, "true", "dont_remember");
  // A remembered sign-in replaces an earlier "don't remember" marker in the same browser.
  else if (requestCookies(ctx.request)[COOKIE_NAMES.dontRemember]) clearCookie(ctx, COOKIE_NAMES.dontRemember);
  writeCookieCache(ctx, data);
}

function writeCookieCache(ctx: RequestContext, data: SessionWithUser, wire = sessionWithUserOnTheWire(data)) {
  if (env.AUTH_COOKIE_CACHE_MAX_AGE === 0) return;
  const expiresAt = Math.min(Date.now() + env.AUTH_COOKIE_CACHE_MAX_AGE * 1000, data.session.expiresAt.getTime());
  const payload = Buffer.from(JSON.stringify({ ...wire, expiresAt })).toString("base64url");
  const value = sign(payload, "session_data");
  if (value.length > COOKIE_CACHE_SIZE_LIMIT) return; // too large to cache; the database answers instead
  setCookie(ctx, COOKIE_NAMES.sessionData, value, data.session.rememberMe ? env.AUTH_COOKIE_CACHE_MAX_AGE : undefined);
}

/**
 * What a session that starts with a sign-in records (docs/decisions/048-security-events.md): how, whether a
 * second factor was given, and whether this browser is new to the account (ADR 039). `device: "creating"` is
 * the browser that created the account a moment ago: remembered as its first device, never "new".
 */
export interface SignInRecord {
  method: SignInMethod;
  /** A social sign-in's provider: its id and its configured display name. */
  provider?: string;
  providerName?: string;
  twoFactor: boolean;
  device: "mark" | "creating";
  /** The browser was new and confirmed with a mailed code first (issue 39 §3, ADR 058). */
  deviceVerified?: boolean;
}

/** A started session, marked with whether this browser had signed in to the account before. */
export type StartedSession = SessionWithUser & { newDevice: boolean };

/**
 * Test-only seam (tests/unit/sign-in-under-the-stamp.suite.ts): runs just before a session start takes the user
 * row's lock, where a revocation racing a sign-in commits in production, so tests force that order instead of
 * hoping for it. Always unset in the server.
 */
export const sessionStartProbe: { beforeLock?: (userId: string) => Promise<void> } = {};

/**
 * Creates a session for a user who just proved who they are, and sets its cookies. Called by the first-factor
 * door (app/auth/sign-in/first-factor.server.ts) and the names it gives its exceptions, and by a finished two-factor
 * attempt: nowhere else, so no way in skips the verified-address check or the second factor. A session this browser
 * already had ends here: signing in again (as anyone) must not leave the earlier session usable. `signedInAt`: for
 * a session replacing another without a new sign-in, the replaced one's sign-in time (ADR 030's clock does not start
 * again). `signIn`: the session, the device mark and the `sign_in` event commit together, in one transaction.
 */
export async function startSession(
  ctx: RequestContext,
  user: User,
  options: {
    rememberMe?: boolean;
    signedInAt?: Date;
    /** The replaced session's last confirmation (ADR 059), kept with its sign-in time. */
    verifiedAt?: Date | null;
    signIn?: SignInRecord;
    /** An admin's session as this user (ADR 049): it lasts `lifetimeSeconds`, and the admin's own session is kept. */
    impersonation?: { adminId: string; lifetimeSeconds: number };
    /** The credentials version the proof was read with (ADR 055), when not `user`'s own (a two-factor attempt's, a password change's). */
    credentialsVersion?: number;
    /** The answer when that version has moved: the door's own answer to a wrong credential. */
    refusal?: ErrorName;
  } = {},
): Promise<StartedSession> {
  const { impersonation } = options;
  const rememberMe = options.rememberMe !== false && !impersonation;
  const lifetime = impersonation
    ? impersonation.lifetimeSeconds
    : rememberMe
      ? env.AUTH_SESSION_EXPIRES_IN
      : Math.min(env.AUTH_SESSION_EXPIRES_IN, UNREMEMBERED_SESSION_SECONDS);
  const previousToken = impersonation ? null : sessionTokenFrom(ctx.request);
  const signIn = options.signIn;
  const deviceHash = signIn ? deviceHashOf(ctx) : null;
  const expectedVersion = options.credentialsVersion ?? user.credentialsVersion;
  await sessionStartProbe.beforeLock?.(user.id);
  const { session, newDevice, standing } = await db.$transaction(async (tx) => {
    // Every session start passes here, so a banned user gets none by any door, also one added later (ADR 049).
    const standing = await refuseBannedInTransaction(tx, user.id);
    // And none rests on a credential revoked since it was checked: every revocation moves the version under the
    // same lock (ADR 055), so a sign-in in flight when a claim, a reset or "This wasn't me" commits ends here.
    if (!standing || standing.credentialsVersion !== expectedVersion) throw new AuthError(options.refusal ?? "UNAUTHORIZED");
    const session = await insertSession(
      {
        userId: user.id,
        token: randomToken(SESSION_TOKEN_LENGTH),
        expiresAt: new Date(Date.now() + lifetime * 1000),
        rememberMe,
        ipAddress: ctx.clientIp === "unknown" ? null : ctx.clientIp,
        userAgent: ctx.userAgent,
        impersonatedBy: impersonation?.adminId ?? null,
        ...(options.signedInAt ? { createdAt: options.signedInAt } : {}),
        ...(options.verifiedAt ? { verifiedAt: options.verifiedAt } : {}),
      },
      tx,
    );
    if (previousToken) await tx.session.deleteMany({ where: { token: previousToken } });
    if (!signIn || !deviceHash) return { session, newDevice: false, standing };
    const firstSeen = await markDevice(tx, user.id, deviceHash);
    const newDevice = signIn.device === "mark" && firstSeen;
    await recordSecurityEvent(tx, {
      userId: user.id,
      type: "sign_in",
      ctx,
      sessionId: session.id,
      details: {
        method: signIn.method,
        ...(signIn.provider ? { provider: signIn.provider, providerName: signIn.providerName ?? signIn.provider } : {}),
        twoFactor: signIn.twoFactor,
        newDevice,
        ...(signIn.device === "creating" ? { signUp: true } : {}),
        ...(signIn.deviceVerified ? { deviceVerified: true } : {}),
      },
      ownerEmail: standing.email,
    });
    return { session, newDevice, standing };
  });
  // An AUTH_ADMIN_EMAILS account becomes an admin at its first session once verified (ADR 049).
  if (standing) await promoteIfConfigured(standing);
  if (!impersonation) user = await keepLanguage(ctx, user);
  const data = { session, user };
  writeSessionCookies(ctx, data);
  noteUser(ctx.note, user.id);
  return { ...data, newDevice };
}

/**
 * Session cookies whose signature was already checked, to the token they carry: the HMAC was a sixth of a
 * signed-in read. The same string always verifies the same way, and only a string that verified gets in, so
 * this changes no answer. Emptied when full (a bound, not an eviction policy, for the memory target).
 */
const verifiedSessionCookies = new Map<string, string>();
const VERIFIED_COOKIES_LIMIT = 10_000;

export function sessionTokenFrom(request: Request): string | null {
  return sessionTokenOfCookieHeader(request.headers.get("cookie"));
}

/** `sessionTokenFrom` given the Cookie header's text. */
export function sessionTokenOfCookieHeader(header: string | null | undefined): string | null {
  const signed = cookiesOfHeader(header)[COOKIE_NAMES.sessionToken];
  if (!signed) return null;
  const known = verifiedSessionCookies.get(signed);
  if (known !== undefined) return known;
  const token = unsign(signed, "session");
  if (token !== null) {
    if (verifiedSessionCookies.size >= VERIFIED_COOKIES_LIMIT) verifiedSessionCookies.clear();
    verifiedSessionCookies.set(signed, token);
  }
  return token;
}

/** The cached copy of the session, if its signature, token and age all check out. */
function readCookieCache(request: Request, token: string): SessionWithUserOnTheWire | null {
  const payload = readSignedCookie(request, COOKIE_NAMES.sessionData, "session_data");
  if (!payload) return null;
  try {
    const cached = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
    const now = Date.now();
    if (cached.session?.token !== token || !(cached.expiresAt > now)) return null;
    if (!(new Date(cached.session.expiresAt).getTime() > now)) return null;
    return { session: cached.session, user: cached.user };
  } catch {
    return null;
  }
}

export interface ReadSessionOptions {
  /** Ignore the cookie cache and ask the database (every write path does). */
  disableCookieCache?: boolean;
  /** Do not extend the session even if its update age has passed. */
  disableRefresh?: boolean;
}

/**
 * The signed-in session, or null. Deletes an expired session and clears its cookies; extends a session read
 * after the update age. Only GET /get-session may accept the cookie cache: see `getPublicSession`.
 */
export async function getSession(
  ctx: RequestContext,
  options: { disableRefresh?: boolean } = {},
): Promise<SessionWithUser | null> {
  return currentSessionFromCache(ctx, options) ?? readSessionAndExtend(ctx, options);
}

/** `getSession` past the cache: may delete an expired session, extend a due one, clear cookies naming none. */
async function readSessionAndExtend(ctx: RequestContext, options: { disableRefresh?: boolean }): Promise<SessionWithUser | null> {
  const found = await lookUpSession(ctx);
  return found && !options.disableRefresh ? extendSessionIfDue(ctx, found) : found;
}

/** The signed-in session as stored, never extended; deletes an expired one and clears cookies that name none. */
export async function lookUpSession(ctx: RequestContext): Promise<SessionWithUser | null> {
  return (await lookUpSessionOrEnding(ctx)).current;
}

/**
 * `lookUpSession`, and whether the browser's own, genuine session cookie named a session that is no longer there:
 * it was ended elsewhere (revoked from another device, every session ended by a password change, cleaned up),
 * since signing out here clears the cookie. Pages tell that browser once why it is signed out.
 */
export async function lookUpSessionOrEnding(ctx: RequestContext): Promise<{ current: SessionWithUser | null; endedElsewhere: boolean }> {
  const token = sessionTokenFrom(ctx.request);
  if (!token) {
    if (requestCookies(ctx.request)[COOKIE_NAMES.sessionToken]) clearSessionCookies(ctx);
    return { current: null, endedElsewhere: false };
  }
  const found = await readSessionWithUser(token);
  if (!found) {
    clearSessionCookies(ctx);
    return { current: null, endedElsewhere: true };
  }
  const { user, session } = found;
  if (session.expiresAt.getTime() <= Date.now()) {
    await db.session.deleteMany({ where: { id: session.id } });
    clearSessionCookies(ctx);
    return { current: null, endedElsewhere: false };
  }
  noteUser(ctx.note, user.id);
  return { current: { session, user }, endedElsewhere: false };
}

/** Whether a session read now is to be extended: past the update age, and one the user chose to remember. */
function extensionDue(session: Session, now: number): boolean {
  const lastExtendedAt = session.expiresAt.getTime() - env.AUTH_SESSION_EXPIRES_IN * 1000;
  // A session the user chose not to remember is never extended, whatever cookies the browser sends.
  return session.rememberMe && lastExtendedAt + env.AUTH_SESSION_UPDATE_AGE * 1000 <= now;
}

/**
 * `getSession`'s answer when this process's cache holds the session and nothing about it needs the database
 * (not expired, no extension due): synchronously, for the reads that make most of the traffic. Null when the
 * full path must decide (no cookie, a miss, an expired or extendable session).
 */
function currentSessionFromCache(ctx: RequestContext, options: { disableRefresh?: boolean }): SessionWithUser | null {
  const token = sessionTokenFrom(ctx.request);
  const found = token ? sessionFromCacheAlone(token, options) : null;
  if (found) noteUser(ctx.note, found.user.id);
  return found;
}

/** `currentSessionFromCache` by token: also what answers GET /get-session before any Request is made (ADR 054). */
export function sessionFromCacheAlone(token: string, options: { disableRefresh?: boolean }): SessionWithUser | null {
  const found = cachedSessionWithUser(token);
  if (!found) return null;
  const now = Date.now();
  if (found.session.expiresAt.getTime() <= now) return null;
  if (!options.disableRefresh && extensionDue(found.session, now)) return null;
  return found;
}

/** Extends a session read after the update age (and re-sends its cookies); null if it was removed meanwhile. */
export async function extendSessionIfDue(ctx: RequestContext, found: SessionWithUser): Promise<SessionWithUser | null> {
  const { user, session } = found;
  const now = Date.now();
  if (extensionDue(session, now)) {
    // deleteMany/updateMany: a concurrent sign-out may have removed the row; that is not an error.
    const expiresAt = new Date(now + env.AUTH_SESSION_EXPIRES_IN * 1000);
    const { count } = await db.session.updateMany({ where: { id: session.id }, data: { expiresAt } });
    if (count === 0) {
      clearSessionCookies(ctx);
      return null;
    }
    const extended = { session: { ...session, expiresAt, updatedAt: new Date(now) }, user };
    writeSessionCookies(ctx, extended);
    return extended;
  }
  return { session, user };
}

/** GET /get-session: the cookie cache may answer when enabled and not bypassed. */
export async function getPublicSession(
  ctx: RequestContext,
  options: ReadSessionOptions = {},
): Promise<SessionWithUserOnTheWire | null> {
  if (env.AUTH_COOKIE_CACHE_MAX_AGE > 0 && !options.disableCookieCache) {
    const token = sessionTokenFrom(ctx.request);
    const cached = token ? readCookieCache(ctx.request, token) : null;
    if (cached) return cached;
  }
  // The cache first, synchronously: a hit costs no promise (getSession would wrap it in one).
  const data = currentSessionFromCache(ctx, options) ?? (await readSessionAndExtend(ctx, options));
  if (!data) return null;
  const wire = sessionWithUserOnTheWire(data);
  if (env.AUTH_COOKIE_CACHE_MAX_AGE > 0 && !ctx.responseHeaders.has("Set-Cookie")) writeCookieCache(ctx, data, wire);
  return wire;
}

/**
 * `getPublicSession`'s answer when it needs nothing but this process's memory: the session cache holds a live
 * session with no extension due, and no cookie cache is to be read or written. Null whenever `getPublicSession`
 * must run (it may read the database, extend the session, set or clear cookies). ADR 054.
 */
export function publicSessionFromMemory(cookieHeader: string | undefined, options: { disableRefresh?: boolean }): SessionWithUserOnTheWire | null {
  if (env.AUTH_COOKIE_CACHE_MAX_AGE > 0) return null;
  const token = sessionTokenOfCookieHeader(cookieHeader);
  const found = token ? sessionFromCacheAlone(token, options) : null;
  return found ? sessionWithUserOnTheWire(found) : null;
}

/** The session or a 401: for every endpoint that acts on the signed-in user. */
export async function requireSession(ctx: RequestContext): Promise<SessionWithUser> {
  const data = await getSession(ctx);
  if (!data) throw new AuthError("UNAUTHORIZED");
  return data;
}

/** A session created within the fresh age: required before sensitive changes (spec §6). */
export function isFresh(session: Session): boolean {
  if (env.AUTH_SESSION_FRESH_AGE === 0) return true; // 0 turns the freshness requirement off
  return Date.now() - session.createdAt.getTime() <= env.AUTH_SESSION_FRESH_AGE * 1000;
}

export async function signOut(ctx: RequestContext): Promise<void> {
  const token = sessionTokenFrom(ctx.request);
  if (token) {
    await db.$transaction(async (tx) => {
      const ended = await tx.session.findUnique({ where: { token }, select: { id: true, userId: true } });
      const { count } = await tx.session.deleteMany({ where: { token } });
      if (ended && count > 0) await recordSecurityEvent(tx, { userId: ended.userId, type: "sign_out", ctx, sessionId: ended.id });
    });
  }
  clearSessionCookies(ctx);
  // A signed-out browser is nobody's: a verification link opened in it later must not sign it in.
  if (requestCookies(ctx.request)[SIGN_UP_BROWSER_COOKIE]) clearCookie(ctx, SIGN_UP_BROWSER_COOKIE);
}

/** Puts a stored session back in this browser (the admin's own, when they stop impersonating). */
export function resumeSession(ctx: RequestContext, data: SessionWithUser): void {
  writeSessionCookies(ctx, data);
}

/** Rewrites the cookie cache after the user row changed, so the cached copy never shows stale data. */
export function refreshCookieCache(ctx: RequestContext, data: SessionWithUser): void {
  writeCookieCache(ctx, data);
}
