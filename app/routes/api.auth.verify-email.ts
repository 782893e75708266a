// GET /verify-email?token&callbackURL: redirects to callbackURL (with ?error= on failure), or answers JSON.
import { z } from "zod";
import { AuthError } from "~/auth/errors";
import { verifyEmailErrorValue, verifyEmailToken } from "~/auth/email-verification.server";
import { withQuery } from "~/auth/links.server";
import { endpoint, found, optionalUrl } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: z.object({ token: z.string().default(""), callbackURL: optionalUrl }),
  handler: async ({ query, ctx }) => {
    try {
      const result = await verifyEmailToken(ctx, query.token);
      return query.callbackURL ? found(query.callbackURL) : result;
    } catch (error) {
      if (!(error instanceof AuthError) || !query.callbackURL) throw error;
      return found(withQuery(query.callbackURL, { error: verifyEmailErrorValue(error) }));
    }
  },
});
