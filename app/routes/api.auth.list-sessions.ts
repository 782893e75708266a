import { publicSession } from "~/auth/presenters.server";
import { listSessions, requireSession } from "~/auth/session.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  handler: async ({ ctx }) => {
    const { user } = await requireSession(ctx);
    return (await listSessions(user.id)).map(publicSession);
  },
});
