import { requireSession } from "~/auth/session/sessions.server";
import { reverifyPasskeyOptions } from "~/auth/step-up/reverify.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  handler: async ({ ctx }) => reverifyPasskeyOptions(ctx, await requireSession(ctx)),
});
