import { revokeUserSessionBody } from "~/auth/admin/schemas";
import { revokeUserSession } from "~/auth/admin/users.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: revokeUserSessionBody,
  handler: async ({ body, ctx }) => {
    await revokeUserSession(ctx, await requireSession(ctx), { token: body.sessionToken });
    return { success: true };
  },
});
