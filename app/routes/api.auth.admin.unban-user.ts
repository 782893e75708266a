import { userIdBody } from "~/auth/admin/schemas";
import { unbanUser } from "~/auth/admin/users.server";
import { publicUser } from "~/auth/core/presenters.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: userIdBody,
  handler: async ({ body, ctx }) => ({ user: publicUser(await unbanUser(ctx, await requireSession(ctx), body.userId)) }),
});
