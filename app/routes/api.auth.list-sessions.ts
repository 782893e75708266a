import { publicSession } from "~/auth/core/presenters.server";
import { listSessions, requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  handler: async ({ ctx }) => {
    const { user } = await requireSession(ctx);
    // An admin's impersonation session is not the owner's to list or end, as Better Auth's admin plugin hides it.
    return (await listSessions(user.id)).filter((s) => !s.impersonatedBy).map(publicSession);
  },
});
