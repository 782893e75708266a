// POST /sign-in/social: {url, redirect: true} to send the browser to the provider, or, with an id token the
// client obtained itself, {redirect: false, token, url: null, user} and the session cookie.
import { idTokenBody, socialStartBody } from "~/auth/social/schemas";
import { signInWithIdToken, startSocialFlow } from "~/auth/social/sign-in.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: socialStartBody.extend({ idToken: idTokenBody.optional() }),
  handler: ({ body, ctx }) => (body.idToken ? signInWithIdToken(ctx, body.provider, body.idToken) : startSocialFlow(ctx, body)),
});
