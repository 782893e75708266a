// GET /delete-user/callback?token&callbackURL: the e-mailed confirmation, followed while signed in. A client asking
// for JSON gets Better Auth's answers ({success, message}, or the error); a browser always lands on a page: on
// success the callbackURL (or /account-deleted, when a mail client cut the link's tail), and on failure
// /account-deleted?error=… saying in words why nothing was deleted (ADR 011).
import { z } from "zod";
import { AuthError } from "~/auth/errors";
import { completeDeletion } from "~/auth/account/delete-account.server";
import { PAGES, withQuery } from "~/auth/core/links.server";
import { requireSession } from "~/auth/session/sessions.server";
import { wantsPage } from "~/http/accept.server";
import { endpoint, found, optionalUrl } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  changesState: true,
  landingPage: PAGES.accountDeleted,
  query: z.object({ token: z.string().default(""), callbackURL: optionalUrl }),
  handler: async ({ query, ctx }) => {
    const page = wantsPage(ctx.request);
    try {
      const result = await completeDeletion(ctx, await requireSession(ctx), query.token);
      const target = query.callbackURL || (page ? PAGES.accountDeleted : undefined);
      return target ? found(target) : result;
    } catch (error) {
      if (!page || !(error instanceof AuthError)) throw error;
      return found(withQuery(PAGES.accountDeleted, { error: error.code.toLowerCase() }));
    }
  },
});
