import { verifySignUpBody } from "~/auth/passkey/schemas";
import { verifySignUp } from "~/auth/passkey/sign-up.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: verifySignUpBody,
  handler: ({ body, ctx }) => verifySignUp(ctx, body),
});
