import { z } from "zod";
import { deleteUser } from "~/auth/delete-account.server";
import { requireSession } from "~/auth/session.server";
import { endpoint, optionalUrl } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ callbackURL: optionalUrl, password: z.string().optional(), token: z.string().optional() }),
  handler: async ({ body, ctx }) => deleteUser(ctx, await requireSession(ctx), body),
});
