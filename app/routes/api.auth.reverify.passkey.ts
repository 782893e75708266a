import { requireSession } from "~/auth/session/sessions.server";
import { reverifyWithPasskey } from "~/auth/step-up/reverify.server";
import { reverifyPasskeyBody } from "~/auth/step-up/schemas";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: reverifyPasskeyBody,
  handler: async ({ body, ctx }) => reverifyWithPasskey(ctx, await requireSession(ctx), body),
});
