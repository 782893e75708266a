import { updateUserBody } from "~/auth/admin/schemas";
import { updateUser } from "~/auth/admin/users.server";
import { publicUser } from "~/auth/core/presenters.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: updateUserBody,
  handler: async ({ body, ctx }) => publicUser(await updateUser(ctx, await requireSession(ctx), body.userId, body.data)),
});
