import { z } from "zod";
import { revokeSession } from "~/auth/session/own-sessions.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ token: z.string().min(1).max(256) }),
  handler: async ({ body, ctx }) => {
    await revokeSession(ctx, await requireSession(ctx), body.token);
    return { status: true };
  },
});
