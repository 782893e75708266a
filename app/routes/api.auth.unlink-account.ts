import { z } from "zod";
import { requireSession } from "~/auth/session/sessions.server";
import { unlinkAccount } from "~/auth/social/accounts.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ providerId: z.string().min(1).max(64), accountId: z.string().max(255).optional() }),
  handler: async ({ body, ctx }) => unlinkAccount(ctx, await requireSession(ctx), body),
});
