import { publicSession } from "~/auth/core/presenters.server";
import { listSessions, requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  handler: async ({ ctx }) => {
    const { user } = await requireSession(ctx);
    return (await listSessions(user.id)).map(publicSession);
  },
});
