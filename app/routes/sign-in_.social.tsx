// POST /sign-in/social (a page form, not the JSON API): starts a social sign-in and sends the browser straight
// to the provider, so "Continue with …" works without JavaScript.
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { safeRedirectTarget } from "~/auth/origin.server";
import { startSocialFlow } from "~/auth/social/sign-in.server";
import { handleForm } from "~/http/page.server";

const schema = z.object({ provider: z.string().min(1).max(64), redirectTo: z.string().max(2048).optional() });

export const loader = () => redirect("/sign-in");

export async function action({ request, context }: ActionFunctionArgs) {
  const outcome = await handleForm({
    request,
    context,
    rateLimitAs: "/sign-in/social",
    schema,
    run: (value, ctx) =>
      startSocialFlow(ctx, { provider: value.provider, callbackURL: safeRedirectTarget(value.redirectTo), errorCallbackURL: "/sign-in" }),
  });
  // A refusal for too many tries says so; anything else here means the provider cannot be used.
  if (!outcome.ok) throw redirect(`/sign-in?error=${outcome.init.status === 429 ? "too_many_requests" : "oauth_provider_not_found"}`);
  throw redirect(outcome.value.url, { headers: outcome.ctx.responseHeaders });
}
