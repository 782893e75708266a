import { z } from "zod";
import { changePassword } from "~/auth/account/password-flows.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ newPassword: z.string(), currentPassword: z.string(), revokeOtherSessions: z.boolean().optional() }),
  handler: async ({ body, ctx }) => changePassword(ctx, await requireSession(ctx), body),
});
