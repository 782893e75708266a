import { setUserPasswordBody } from "~/auth/admin/schemas";
import { setUserPassword } from "~/auth/admin/users.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: setUserPasswordBody,
  handler: async ({ body, ctx }) => {
    await setUserPassword(ctx, await requireSession(ctx), body.userId, body.newPassword);
    return { status: true };
  },
});
