// POST /link-social: {url, redirect}; the provider's return links the identity to the signed-in user.
import { requireSession } from "~/auth/session.server";
import { startSocialFlow } from "~/auth/social/sign-in.server";
import { endpoint } from "~/http/endpoint.server";
import { socialStartBody } from "~/auth/social/schemas";

export const { loader, action } = endpoint({
  method: "POST",
  body: socialStartBody.pick({ provider: true, callbackURL: true, errorCallbackURL: true, scopes: true, disableRedirect: true }),
  handler: async ({ body, ctx }) => {
    const current = await requireSession(ctx);
    return startSocialFlow(ctx, body, current.user.id);
  },
});
