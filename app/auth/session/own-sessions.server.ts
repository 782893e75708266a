// The owner's own sessions: the list (Sessions page, /list-sessions) and ending one, every other or all of them.
// Ending more than one is signing out everywhere, which goes through the one revocation (ADR 055).
import { revokeWaysIn } from "~/auth/account/revocation.server";
import type { RequestContext } from "~/auth/request-context.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import { clearSessionCookies, type SessionWithUser } from "~/auth/session/sessions.server";
import { pageArgs, type Page } from "~/auth/schemas";
import { db, type Session } from "~/db.server";
import { requireRecentVerification } from "~/auth/step-up/guard.server";

/**
 * A page of the user's live sessions, most recently used first: by default the 100 Better Auth lists (ADR 044).
 * An admin's impersonation session is not the owner's to list or end, as Better Auth's admin plugin hides it.
 */
export async function listSessions(userId: string, page?: Page): Promise<Session[]> {
  return db.session.findMany({
    where: { userId, expiresAt: { gt: new Date() }, impersonatedBy: null },
    orderBy: [{ updatedAt: "desc" }, { id: "desc" }],
    ...pageArgs(page),
  });
}

/** One of the user's own live sessions by id, or null. */
export async function findOwnSession(userId: string, id: string): Promise<Session | null> {
  return db.session.findFirst({ where: { id, userId, expiresAt: { gt: new Date() } } });
}

/**
 * Ends the user's sessions that `where` picks and records `session_revoked` for them, in one transaction: the
 * event says which session (one) or how many, and is written only when something ended.
 */
async function endSessions(
  ctx: RequestContext,
  current: SessionWithUser,
  where: { token?: string; id?: string | { not: string } },
  details: { all?: true; others?: true } = {},
): Promise<number> {
  const userId = current.user.id;
  return db.$transaction(async (tx) => {
    const one = typeof where.id === "string" || where.token ? await tx.session.findFirst({ where: { ...where, userId }, select: { id: true } }) : null;
    // One session is the owner's pick; every session (or every other) is signing out everywhere, which goes
    // through the one revocation (ADR 055), so a sign-in in flight does not outlive it either.
    const count = one
      ? (await tx.session.deleteMany({ where: { id: one.id, userId } })).count
      : typeof where.id === "string" || where.token
        ? 0
        : (await revokeWaysIn(tx, userId, { sessions: where.id ? { allBut: where.id.not } : "all" })).sessions;
    if (count > 0) {
      await recordSecurityEvent(tx, {
        userId,
        type: "session_revoked",
        ctx,
        sessionId: one?.id ?? current.session.id,
        details: one ? {} : { ...details, count },
      });
    }
    return count;
  });
}

/** Revokes one of the user's own sessions (a token belonging to someone else changes nothing). */
export async function revokeSession(ctx: RequestContext, current: SessionWithUser, token: string): Promise<void> {
  // Ending another device's session could shut the owner out: not for a stolen cookie alone (ADR 059).
  if (token !== current.session.token) await requireRecentVerification(ctx, current, "/revoke-session");
  await endSessions(ctx, current, { token });
  if (token === current.session.token) clearSessionCookies(ctx);
}

export async function revokeSessionById(ctx: RequestContext, current: SessionWithUser, id: string): Promise<void> {
  if (id !== current.session.id) await requireRecentVerification(ctx, current, "/revoke-session");
  await endSessions(ctx, current, { id });
  if (id === current.session.id) clearSessionCookies(ctx);
}

export async function revokeAllSessions(ctx: RequestContext, current: SessionWithUser): Promise<void> {
  await endSessions(ctx, current, {}, { all: true });
  clearSessionCookies(ctx);
}

export async function revokeOtherSessions(ctx: RequestContext, current: SessionWithUser): Promise<void> {
  // It signs the owner out everywhere but here: a stolen cookie would keep the account to itself (ADR 059).
  await requireRecentVerification(ctx, current, "/revoke-other-sessions");
  await endSessions(ctx, current, { id: { not: current.session.id } }, { others: true });
}
