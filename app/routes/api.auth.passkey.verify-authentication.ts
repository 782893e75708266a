import { verifyAuthentication } from "~/auth/passkey/authentication.server";
import { verifyAuthenticationBody } from "~/auth/passkey/schemas";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: verifyAuthenticationBody,
  handler: ({ body, ctx }) => verifyAuthentication(ctx, body),
});
