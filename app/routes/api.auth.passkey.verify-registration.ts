import { verifyRegistrationBody } from "~/auth/passkey/schemas";
import { verifyRegistration } from "~/auth/passkey/registration.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: verifyRegistrationBody,
  handler: async ({ body, ctx }) => verifyRegistration(ctx, await requireSession(ctx), body),
});
