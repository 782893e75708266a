// POST /sign-in/social (a page form, not the JSON API): starts a social sign-in and sends the browser straight
// to the provider, so "Continue with …" works without JavaScript.
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { z } from "zod";
import { resolveRedirectTarget, safeRedirectTarget } from "~/auth/origin.server";
import { startSocialFlow } from "~/auth/social/sign-in.server";
import { goTo, pageForm } from "~/http/page-action.server";

const schema = z.object({ provider: z.string().min(1).max(64), redirectTo: z.string().max(2048).optional() });

export const loader = () => redirect("/sign-in");

/** The longest URL kept as a return address (resolveRedirectTarget refuses longer ones). */
const MAX_TARGET_LENGTH = 2048;

/**
 * The sign-in page to come back to when this fails, still going where it was going: `redirectTo` is kept only
 * if it is a target the sign-in page would follow (same origin) and the page's URL stays a usable return
 * address once encoded.
 */
function signInPage(redirectTo: unknown, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query);
  const page = () => (search.size ? `/sign-in?${search}` : "/sign-in");
  if (typeof redirectTo !== "string" || redirectTo === "" || !resolveRedirectTarget(redirectTo, { sameOrigin: true })) return page();
  search.set("redirectTo", redirectTo);
  if (page().length <= MAX_TARGET_LENGTH) return page();
  search.delete("redirectTo");
  return page();
}

export async function action({ request, context }: ActionFunctionArgs) {
  const refused = await pageForm({ request, context }, {
    schema,
    rateLimitAs: "/sign-in/social",
    session: "none",
    keepWhenLimited: ["redirectTo"],
    run: async (value, _current, ctx) => {
      const flow = await startSocialFlow(ctx, {
        provider: value.provider,
        callbackURL: safeRedirectTarget(value.redirectTo),
        errorCallbackURL: signInPage(value.redirectTo),
      });
      return goTo(flow.url);
    },
  });
  // A refusal for too many tries says so; anything else here means the provider cannot be used.
  const error = refused.init.status === 429 ? "too_many_requests" : "oauth_provider_not_found";
  throw redirect(signInPage(refused.result.initialValue?.redirectTo, { error }));
}
