// An admin acting as a user (docs/decisions/049-administration.md), as Better Auth's admin plugin does it: a
// new session of the user marked `impersonatedBy` = the admin, lasting AUTH_IMPERSONATION_SECONDS, never
// extended; the admin's own session is kept, its token in a signed `admin_session` cookie, and put back by
// stop-impersonating. Both accounts record the start and the stop, so the owner sees that an admin acted as them.
import { AuthError } from "~/auth/errors";
import { authorizeAct } from "~/auth/admin/authorize.server";
import { isAdminRole } from "~/auth/admin/permissions";
import { findUserOrThrow } from "~/auth/admin/users.server";
import { clearCookie, cookieName, readSignedCookie, requestCookies, setSignedCookie } from "~/auth/core/cookies.server";
import type { RequestContext } from "~/auth/request-context.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import { readSessionWithUser } from "~/auth/session/cached-read.server";
import { COOKIE_NAMES, clearSessionCookies, resumeSession, startSession, type SessionWithUser } from "~/auth/session/sessions.server";
import { db } from "~/db.server";
import { env } from "~/env.server";

export const ADMIN_SESSION_COOKIE = cookieName("admin_session");
const ADMIN_SESSION_PURPOSE = "admin_session";

export async function impersonateUser(ctx: RequestContext, admin: SessionWithUser, userId: string): Promise<SessionWithUser> {
  await authorizeAct(ctx, admin, { user: ["impersonate"] }, "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS", "/admin/impersonate-user");
  const target = await findUserOrThrow(userId);
  // Acting as another admin would be acting with their powers (Better Auth: only with "impersonate-admins").
  if (isAdminRole(target.role)) throw new AuthError("YOU_CANNOT_IMPERSONATE_ADMINS");
  // Better Auth keeps "<token>:<don't-remember marker>", so the admin's cookie comes back as it was.
  const dontRemember = requestCookies(ctx.request)[COOKIE_NAMES.dontRemember] ? "true" : "";
  const started = await startSession(ctx, target, { impersonation: { adminId: admin.user.id, lifetimeSeconds: env.AUTH_IMPERSONATION_SECONDS } });
  try {
    await db.$transaction(async (tx) => {
      const event = { type: "impersonation_started" as const, ctx, sessionId: started.session.id, actorUserId: admin.user.id };
      await recordSecurityEvent(tx, { ...event, userId: target.id });
      await recordSecurityEvent(tx, { ...event, userId: admin.user.id, details: { actingAs: target.email } });
    });
  } catch (error) {
    // No impersonation the owner cannot see: without its events, the session goes too.
    await db.session.deleteMany({ where: { id: started.session.id } });
    throw error;
  }
  const adminCookieAge = admin.session.rememberMe ? Math.max(0, Math.round((admin.session.expiresAt.getTime() - Date.now()) / 1000)) : undefined;
  setSignedCookie(ctx, ADMIN_SESSION_COOKIE, `${admin.session.token}:${dontRemember}`, ADMIN_SESSION_PURPOSE, adminCookieAge);
  return started;
}

/**
 * Ends the impersonation session and puts the admin's own session back. The impersonation ends even when the
 * admin's session cannot be found (its cookie lost, or the session revoked meanwhile): the admin asked to stop
 * acting as the user, so they are then signed out instead (FAILED_TO_FIND_ADMIN_SESSION).
 */
export async function stopImpersonating(ctx: RequestContext, current: SessionWithUser): Promise<SessionWithUser> {
  const adminId = current.session.impersonatedBy;
  if (!adminId) throw new AuthError("YOU_ARE_NOT_IMPERSONATING_ANYONE");
  const [adminToken] = (readSignedCookie(ctx.request, ADMIN_SESSION_COOKIE, ADMIN_SESSION_PURPOSE) ?? "").split(":");
  const adminSession = adminToken ? await readSessionWithUser(adminToken) : null;
  await db.$transaction(async (tx) => {
    await tx.session.deleteMany({ where: { id: current.session.id } });
    const event = { type: "impersonation_stopped" as const, ctx, sessionId: current.session.id, actorUserId: adminId };
    await recordSecurityEvent(tx, { ...event, userId: current.user.id });
    // The admin's account may be gone; the owner's record is the one that matters.
    if (await tx.user.findUnique({ where: { id: adminId }, select: { id: true } })) {
      await recordSecurityEvent(tx, { ...event, userId: adminId, details: { actingAs: current.user.email } });
    }
  });
  clearCookie(ctx, ADMIN_SESSION_COOKIE);
  if (!adminSession || adminSession.session.userId !== adminId || adminSession.session.expiresAt.getTime() <= Date.now()) {
    clearSessionCookies(ctx);
    throw new AuthError("FAILED_TO_FIND_ADMIN_SESSION");
  }
  resumeSession(ctx, adminSession);
  return adminSession;
}
