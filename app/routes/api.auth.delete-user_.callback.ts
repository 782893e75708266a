// GET /delete-user/callback?token&callbackURL: the e-mailed confirmation, followed while signed in.
import { z } from "zod";
import { completeDeletion } from "~/auth/account/delete-account.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint, found, optionalUrl } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  changesState: true,
  query: z.object({ token: z.string().default(""), callbackURL: optionalUrl }),
  handler: async ({ query, ctx }) => {
    const result = await completeDeletion(ctx, await requireSession(ctx), query.token);
    return query.callbackURL ? found(query.callbackURL) : result;
  },
});
