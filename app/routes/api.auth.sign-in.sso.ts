// POST /sign-in/sso: {url, redirect: true} to send the browser to the organization's IdP.
import { signInBody } from "~/auth/sso/schemas";
import { startSsoSignIn } from "~/auth/sso/sign-in.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: signInBody,
  handler: ({ body, ctx }) => startSsoSignIn(ctx, body),
});
