// GET /sso/callback/{providerId}: where an organization's IdP sends the browser back. Signs in and redirects to the
// callbackURL, or redirects with ?error= and no session; never an error body.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { AuthError } from "~/auth/errors";
import { requestContext } from "~/auth/request-context.server";
import { completeSsoSignIn } from "~/auth/sso/sign-in.server";
import { errorResponse } from "~/http/endpoint.server";
import { landAfterProvider } from "~/http/provider-return.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  try {
    const ctx = await requestContext(request, context, "/sso/callback");
    const location = await completeSsoSignIn(ctx, params.providerId ?? "", new URL(request.url).searchParams);
    return landAfterProvider(ctx, location);
  } catch (error) {
    return errorResponse(error);
  }
}

/** An OIDC return is a GET (response_mode=query). */
export const action = () => errorResponse(new AuthError("METHOD_NOT_ALLOWED", { headers: { Allow: "GET" } }));
