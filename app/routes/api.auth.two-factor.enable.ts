import { requireSession } from "~/auth/session/sessions.server";
import { enableBody } from "~/auth/two-factor/schemas";
import { enableTwoFactor } from "~/auth/two-factor/settings.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: enableBody,
  handler: async ({ body, ctx }) => enableTwoFactor(ctx, await requireSession(ctx), body),
});
