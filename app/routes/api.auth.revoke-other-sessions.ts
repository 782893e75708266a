import { revokeOtherSessions } from "~/auth/session/own-sessions.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  handler: async ({ ctx }) => {
    await revokeOtherSessions(ctx, await requireSession(ctx));
    return { status: true };
  },
});
