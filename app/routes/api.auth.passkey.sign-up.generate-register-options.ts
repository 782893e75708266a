import { signUpOptionsBody } from "~/auth/passkey/schemas";
import { signUpRegisterOptions } from "~/auth/passkey/sign-up.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: signUpOptionsBody,
  handler: ({ body, ctx }) => signUpRegisterOptions(ctx, body),
});
