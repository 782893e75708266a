// Whether a session has proved who its user is recently (issue 39 §4; docs/decisions/030-new-ways-in-need-a-
// recent-sign-in.md, 059-step-up-confirm-its-you.md). A stolen session cookie alone must not add a way in, change
// where the account's mail goes, turn off its second factor or act as an administrator: those need the session to
// have signed in, or confirmed it's them (/reverify), within the window. Only the session that proved it counts.
import type { Session } from "~/db.server";
import { env } from "~/env.server";

/**
 * How recent the proof must be: ten minutes, like Clerk's "strict" reverification and tighter than GitHub's
 * two-hour sudo mode, because what it unlocks outlives every session. A smaller AUTH_SESSION_FRESH_AGE
 * tightens it further; 0 (the spec's "no freshness" for delete-user and unlink) does not turn it off.
 */
export const RECENT_VERIFICATION_SECONDS = 10 * 60;

export function recentVerificationWindowSeconds(): number {
  const freshAge = env.AUTH_SESSION_FRESH_AGE;
  return freshAge > 0 ? Math.min(freshAge, RECENT_VERIFICATION_SECONDS) : RECENT_VERIFICATION_SECONDS;
}

/** The last moment the session's user proved who they are: its sign-in, or a later confirmation. */
export function lastVerifiedAt(session: Pick<Session, "createdAt" | "verifiedAt">): number {
  const signedIn = session.createdAt.getTime();
  return session.verifiedAt ? Math.max(signedIn, session.verifiedAt.getTime()) : signedIn;
}

/**
 * Whether the session proved who its user is within the window. A session's `createdAt` is its sign-in (every
 * session starts with one, through the two-factor gate when two-factor is on, or a sign-up; change-password's
 * replacement keeps the replaced session's `createdAt`), and `verifiedAt` its latest confirmation.
 */
export function recentlyVerified(session: Pick<Session, "createdAt" | "verifiedAt">, now = Date.now()): boolean {
  return now - lastVerifiedAt(session) <= recentVerificationWindowSeconds() * 1000;
}

/** Where a page sends someone to confirm it's them: the "Confirm it's you" page, coming back to `page` afterwards. */
export function confirmItsYouUrl(page: string): string {
  return `/reverify?${new URLSearchParams({ redirectTo: page })}`;
}
