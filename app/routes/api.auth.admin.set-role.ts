import { setRoleBody } from "~/auth/admin/schemas";
import { setRole } from "~/auth/admin/users.server";
import { publicUser } from "~/auth/core/presenters.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: setRoleBody,
  handler: async ({ body, ctx }) => ({ user: publicUser(await setRole(ctx, await requireSession(ctx), body.userId, body.role)) }),
});
