import { banUserBody } from "~/auth/admin/schemas";
import { banUser } from "~/auth/admin/users.server";
import { publicUser } from "~/auth/core/presenters.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: banUserBody,
  handler: async ({ body, ctx }) => ({ user: publicUser(await banUser(ctx, await requireSession(ctx), body)) }),
});
