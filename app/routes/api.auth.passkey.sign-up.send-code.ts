import { sendSignUpCodeBody } from "~/auth/passkey/schemas";
import { sendSignUpCode } from "~/auth/passkey/sign-up.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: sendSignUpCodeBody,
  handler: ({ body, ctx }) => sendSignUpCode(ctx, body),
});
