// POST /sso/saml2/sp/acs/{providerId}: the SAML assertion consumer service. A cross-site form post from the IdP:
// no origin check and none of our cookies needed (the RelayState names the server-side state). Signs in and
// redirects (303) to the callbackURL, or redirects with ?error= and no session; never an error body.
import type { ActionFunctionArgs } from "@remix-run/node";
import { AuthError } from "~/auth/errors";
import { enforceRateLimitNoting, type RequestContext } from "~/auth/request-context.server";
import { MAX_SAML_RESPONSE_BYTES } from "~/auth/sso/saml.server";
import { completeSamlSignIn } from "~/auth/sso/sign-in.server";
import { readCappedText } from "~/http/body.server";
import { errorResponse } from "~/http/endpoint.server";
import { landAfterProvider } from "~/http/provider-return.server";

/** The form: a base64 SAMLResponse of at most 256 KB of XML, and the RelayState. */
const MAX_FORM_BYTES = Math.ceil((MAX_SAML_RESPONSE_BYTES * 4) / 3) * 2 + 4096;

export const loader = () => errorResponse(new AuthError("METHOD_NOT_ALLOWED", { headers: { Allow: "POST" } }));

export async function action({ request, context, params }: ActionFunctionArgs) {
  try {
    if (request.method !== "POST") return loader();
    // requestContext() without its Origin check: the IdP's post comes from the IdP's origin by design (SAML's
    // HTTP-POST binding). What makes it safe is the signed response answering our own AuthnRequest.
    const ctx: RequestContext = {
      request,
      clientIp: context?.clientIp ?? "unknown",
      userAgent: request.headers.get("user-agent"),
      responseHeaders: new Headers(),
      note: context?.requestNote,
    };
    await enforceRateLimitNoting(ctx.clientIp, "/sso/saml2/sp/acs");
    const form = new URLSearchParams(await readCappedText(request, context, MAX_FORM_BYTES));
    const location = await completeSamlSignIn(ctx, params.providerId ?? "", form);
    return landAfterProvider(ctx, location, 303);
  } catch (error) {
    return errorResponse(error);
  }
}
