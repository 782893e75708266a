import { userIdBody } from "~/auth/admin/schemas";
import { removeUser } from "~/auth/admin/users.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: userIdBody,
  handler: async ({ body, ctx }) => {
    await removeUser(ctx, await requireSession(ctx), body.userId);
    return { success: true };
  },
});
