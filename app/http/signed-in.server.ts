// /sign-in and /sign-up for someone already signed in: there is nothing to fill in, so they go where they were
// heading (a safe redirectTo) or to their account.
import type { AppLoadContext } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { safeRedirectTarget } from "~/auth/origin.server";
import { requestContext } from "~/http/page.server";
import { pageSession } from "~/http/page-session.server";

/** Throws the redirect when signed in; otherwise the headers the page's answer must carry. */
export async function redirectIfSignedIn(request: Request, context: AppLoadContext): Promise<Headers> {
  const ctx = await requestContext(request, context, null);
  if (await pageSession(ctx, context)) {
    const target = new URL(request.url).searchParams.get("redirectTo") ?? "";
    throw redirect(safeRedirectTarget(target), { headers: ctx.responseHeaders });
  }
  return ctx.responseHeaders;
}

/**
 * /sign-in?reauthenticate=1: a signed-in person asked to confirm it's them before adding a way in (ADR 030). They
 * get the form, with their address, and a sign-in replaces their session; without a session it is the plain
 * sign-in page. Anyone else signed in is sent on as `redirectIfSignedIn` does.
 */
export async function signInPageFor(request: Request, context: AppLoadContext): Promise<{ headers: Headers; reauthenticating: string | null }> {
  if (new URL(request.url).searchParams.get("reauthenticate") !== "1") {
    return { headers: await redirectIfSignedIn(request, context), reauthenticating: null };
  }
  const ctx = await requestContext(request, context, null);
  const current = await pageSession(ctx, context);
  return { headers: ctx.responseHeaders, reauthenticating: current?.user.email ?? null };
}
