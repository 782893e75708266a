import { registerOptionsQuery } from "~/auth/passkey/schemas";
import { generateRegisterOptions } from "~/auth/passkey/registration.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: registerOptionsQuery,
  handler: async ({ query, ctx }) => generateRegisterOptions(ctx, await requireSession(ctx), query),
});
