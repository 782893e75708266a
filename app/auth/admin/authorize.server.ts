// The one check in front of every admin action, for the API and the console alike: a session (401 without), and
// a role that grants the permission (Better Auth's 403 and message for that action, otherwise).
import type { ErrorName } from "~/auth/errors";
import { AuthError } from "~/auth/errors";
import { hasPermission, type Permissions } from "~/auth/admin/permissions";
import type { RequestContext } from "~/auth/request-context.server";
import { requireSession, type SessionWithUser } from "~/auth/session/sessions.server";

/** The admin's session, if their role grants `permissions`; else `refusal` (a YOU_ARE_NOT_ALLOWED_TO_… entry). */
export function authorize(admin: SessionWithUser, permissions: Permissions, refusal: ErrorName): SessionWithUser {
  if (!hasPermission(admin.user.role, permissions)) throw new AuthError(refusal);
  return admin;
}

/** For an API route: the signed-in caller (401 when signed out), authorized as `authorize` says. */
export async function requireAdmin(ctx: RequestContext, permissions: Permissions, refusal: ErrorName): Promise<SessionWithUser> {
  return authorize(await requireSession(ctx), permissions, refusal);
}
