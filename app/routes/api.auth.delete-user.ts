import { z } from "zod";
import { deleteUser } from "~/auth/account/delete-account.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint, optionalUrl } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ callbackURL: optionalUrl, password: z.string().optional(), token: z.string().optional() }),
  handler: async ({ body, ctx }) => deleteUser(ctx, await requireSession(ctx), body),
});
