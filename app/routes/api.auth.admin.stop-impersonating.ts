import { stopImpersonating } from "~/auth/admin/impersonation.server";
import { publicSession, publicUser } from "~/auth/core/presenters.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  handler: async ({ ctx }) => {
    const { session, user } = await stopImpersonating(ctx, await requireSession(ctx));
    return { session: publicSession(session), user: publicUser(user) };
  },
});
