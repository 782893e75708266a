import { requireSession } from "~/auth/session/sessions.server";
import { passwordBody } from "~/auth/two-factor/schemas";
import { getTotpUri } from "~/auth/two-factor/settings.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: passwordBody,
  handler: async ({ body, ctx }) => getTotpUri(ctx, await requireSession(ctx), body),
});
