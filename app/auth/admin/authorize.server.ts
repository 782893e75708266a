// The one check in front of every admin action, for the API and the console alike: a session (401 without), and
// a role that grants the permission (Better Auth's 403 and message for that action, otherwise).
import type { ErrorName } from "~/auth/errors";
import { AuthError } from "~/auth/errors";
import { hasPermission, type Permissions } from "~/auth/admin/permissions";
import type { RequestContext } from "~/auth/request-context.server";
import { requireSession, type SessionWithUser } from "~/auth/session/sessions.server";
import { requireRecentVerification } from "~/auth/step-up/guard.server";

/** The admin's session, if their role grants `permissions`; else `refusal` (a YOU_ARE_NOT_ALLOWED_TO_… entry). */
export function authorize(admin: SessionWithUser, permissions: Permissions, refusal: ErrorName): SessionWithUser {
  if (!hasPermission(admin.user.role, permissions)) throw new AuthError(refusal);
  return admin;
}

/**
 * For an admin's act (every /admin/* POST that changes something, and the console's buttons for them): authorized
 * as `authorize` says, then the admin's session must be recently verified (issue 39 §4, ADR 059), so a stolen
 * admin cookie alone cannot ban, promote, impersonate or set passwords. `action` is the API path.
 */
export async function authorizeAct(ctx: RequestContext, admin: SessionWithUser, permissions: Permissions, refusal: ErrorName, action: string): Promise<SessionWithUser> {
  authorize(admin, permissions, refusal);
  await requireRecentVerification(ctx, admin, action);
  return admin;
}

/** For an API route: the signed-in caller (401 when signed out), authorized as `authorize` says. */
export async function requireAdmin(ctx: RequestContext, permissions: Permissions, refusal: ErrorName): Promise<SessionWithUser> {
  return authorize(await requireSession(ctx), permissions, refusal);
}
