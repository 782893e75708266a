import { endAllSessions } from "~/auth/security-events/end-all-sessions.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  handler: async ({ ctx }) => {
    await endAllSessions(ctx, await requireSession(ctx));
    return { status: true };
  },
});
