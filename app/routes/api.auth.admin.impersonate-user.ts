import { userIdBody } from "~/auth/admin/schemas";
import { impersonateUser } from "~/auth/admin/impersonation.server";
import { publicSession, publicUser } from "~/auth/core/presenters.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: userIdBody,
  handler: async ({ body, ctx }) => {
    const { session, user } = await impersonateUser(ctx, await requireSession(ctx), body.userId);
    return { session: publicSession(session), user: publicUser(user) };
  },
});
