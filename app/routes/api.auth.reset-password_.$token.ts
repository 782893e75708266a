// GET /reset-password/{token}?callbackURL: the e-mailed link; hands the token to the page that asks for the
// new password, or reports error=INVALID_TOKEN. The token is not used up here.
import { z } from "zod";
import { PAGES, withQuery } from "~/auth/core/links.server";
import { isResetTokenUsable } from "~/auth/account/password-flows.server";
import { endpoint, found, optionalUrl } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  landingPage: PAGES.resetPassword,
  query: z.object({ callbackURL: optionalUrl }),
  handler: async ({ query, params }) => {
    const token = params.token ?? "";
    const target = query.callbackURL || PAGES.resetPassword;
    return found(withQuery(target, (await isResetTokenUsable(token)) ? { token } : { error: "INVALID_TOKEN" }));
  },
});
