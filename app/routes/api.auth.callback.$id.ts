// GET and POST /callback/{id}: where a provider sends the browser back. A POST (Apple's form_post, sent
// cross-site, so without the browser's SameSite cookies) is turned into the same GET on this site, where the
// state cookie is present; the GET finishes the sign-in or link and redirects, never answering an error body.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { requestContext } from "~/auth/request-context.server";
import { completeSocialFlow } from "~/auth/social/sign-in.server";
import { readCappedText } from "~/http/body.server";
import { errorResponse } from "~/http/endpoint.server";
import { landAfterProvider } from "~/http/provider-return.server";
import { env } from "~/env.server";

const CALLBACK_FIELDS = ["code", "state", "error", "error_description", "user"];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  try {
    const ctx = await requestContext(request, context, "/callback");
    const location = await completeSocialFlow(ctx, params.id ?? "", new URL(request.url).searchParams);
    return landAfterProvider(ctx, location);
  } catch (error) {
    return errorResponse(error);
  }
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  try {
    const form = new URLSearchParams(await readCappedText(request, context));
    const url = new URL(request.url);
    for (const field of CALLBACK_FIELDS) {
      const value = form.get(field);
      if (value !== null && !url.searchParams.has(field)) url.searchParams.set(field, value.slice(0, 4096));
    }
    url.pathname = `/api/auth/callback/${encodeURIComponent(params.id ?? "")}`;
    return new Response(null, { status: 303, headers: { Location: `${env.BASE_URL}${url.pathname}${url.search}`, "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
