import { hasPermission } from "~/auth/admin/permissions";
import { hasPermissionBody } from "~/auth/admin/schemas";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: hasPermissionBody,
  // Over HTTP the caller's own role decides; Better Auth reads body.userId and body.role only on the server.
  handler: async ({ body, ctx }) => {
    const { user } = await requireSession(ctx);
    return { error: null, success: hasPermission(user.role, (body.permissions ?? body.permission)!) };
  },
});
