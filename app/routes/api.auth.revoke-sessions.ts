import { requireSession, revokeAllSessions } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  handler: async ({ ctx }) => {
    const { user } = await requireSession(ctx);
    await revokeAllSessions(ctx, user.id);
    return { status: true };
  },
});
