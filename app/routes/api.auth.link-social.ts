// POST /link-social: {url, redirect}; the provider's return links the identity to the signed-in user.
import { requireRecentVerification } from "~/auth/step-up/guard.server";
import { requireSession } from "~/auth/session/sessions.server";
import { startSocialFlow } from "~/auth/social/sign-in.server";
import { endpoint } from "~/http/endpoint.server";
import { socialStartBody } from "~/auth/social/schemas";

export const { loader, action } = endpoint({
  method: "POST",
  body: socialStartBody.pick({ provider: true, callbackURL: true, errorCallbackURL: true, scopes: true, disableRedirect: true }),
  handler: async ({ body, ctx }) => {
    const current = await requireSession(ctx);
    // Linking adds a way in: it needs a recent sign-in (docs/decisions/030-new-ways-in-need-a-recent-sign-in.md).
    await requireRecentVerification(ctx, current, "/link-social");
    return startSocialFlow(ctx, body, current.user.id);
  },
});
