// New ways into an account (a passkey, a linked provider account, a password) need a recent sign-in, and the
// owner is told by mail when one is added (docs/decisions/030-new-ways-in-need-a-recent-sign-in.md; the mail
// follows the security event the change records, app/auth/security-events/notify.server.ts, ADR 048). A stolen
// session cookie alone must not become a lasting way in.
import { AuthError } from "~/auth/errors";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import type { Session } from "~/db.server";
import { env } from "~/env.server";

/**
 * How recent the sign-in must be: ten minutes, like Clerk's "strict" reverification and tighter than GitHub's
 * two-hour sudo mode, because what it unlocks outlives every session. A smaller AUTH_SESSION_FRESH_AGE
 * tightens it further; 0 (the spec's "no freshness" for delete-user and unlink) does not turn it off.
 */
export const NEW_WAY_IN_WINDOW_SECONDS = 10 * 60;

export function newWayInWindowSeconds(): number {
  const freshAge = env.AUTH_SESSION_FRESH_AGE;
  return freshAge > 0 ? Math.min(freshAge, NEW_WAY_IN_WINDOW_SECONDS) : NEW_WAY_IN_WINDOW_SECONDS;
}

/**
 * Whether the session's sign-in happened within the window. A session's `createdAt` is the moment its user
 * proved who they are: every session is started by a sign-in (through the two-factor gate when two-factor is
 * on) or a sign-up, and a session minted without one (change-password's replacement) keeps the `createdAt` of
 * the session it replaces, so it never resets the clock.
 */
export function signedInRecently(session: Pick<Session, "createdAt">, now = Date.now()): boolean {
  return now - session.createdAt.getTime() <= newWayInWindowSeconds() * 1000;
}

/** Refuses with the spec's 403 "Session is not fresh" unless the session's sign-in is recent enough. */
export function requireRecentSignIn(current: Pick<SessionWithUser, "session">): void {
  if (!signedInRecently(current.session)) throw new AuthError("SESSION_IS_NOT_FRESH");
}

/** Where a page sends someone to confirm it's them: the sign-in page, coming back to `page` afterwards. */
export function confirmItsYouUrl(page: string): string {
  return `/sign-in?${new URLSearchParams({ redirectTo: page, reauthenticate: "1" })}`;
}
