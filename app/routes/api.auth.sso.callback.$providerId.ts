// GET /sso/callback/{providerId}: where an organization's IdP sends the browser back. Signs in and redirects to the
// callbackURL, or redirects with ?error= and no session; never an error body.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { AuthError } from "~/auth/errors";
import { endedBy } from "~/auth/account/claim.server";
import { requestContext } from "~/auth/request-context.server";
import { completeSsoSignIn } from "~/auth/sso/sign-in.server";
import { errorResponse } from "~/http/endpoint.server";
import { setFlash } from "~/http/flash.server";
import { claimNotice } from "~/http/page-messages.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  try {
    const ctx = await requestContext(request, context, "/sso/callback");
    const location = await completeSsoSignIn(ctx, params.providerId ?? "", new URL(request.url).searchParams);
    // The IdP's word claimed a never-proven account (ADR 028): the landing page says what ended and why.
    const ended = endedBy(ctx);
    const claim = ended ? claimNotice(ended, "signed-in") : null;
    if (claim) setFlash(ctx.responseHeaders, claim.text, claim.link ? { link: claim.link } : {});
    ctx.responseHeaders.set("Location", location);
    ctx.responseHeaders.set("Cache-Control", "no-store");
    return new Response(null, { status: 302, headers: ctx.responseHeaders });
  } catch (error) {
    return errorResponse(error);
  }
}

/** An OIDC return is a GET (response_mode=query). */
export const action = () => errorResponse(new AuthError("METHOD_NOT_ALLOWED", { headers: { Allow: "GET" } }));
