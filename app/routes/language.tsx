// POST /language: the picker's form. Sets the picker's cookie for a year and, signed in, the account's language
// (an admin acting as someone: the admin's own, whose language the pages then speak), then goes back to the page
// it came from: a path on this site only, anything else is the home page. Nothing happens on a GET.
import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { resolveRedirectTarget } from "~/auth/origin.server";
import { enforceRateLimitNoting } from "~/auth/request-context.server";
import { db } from "~/db.server";
import { isOffered, setLanguageCookie } from "~/i18n/choose.server";
import { knownError } from "~/http/known-error.server";
import { lookAtSession } from "~/http/page-session.server";
import { pageRequestContext, readForm } from "~/http/page.server";

export const loader = () => redirect("/");

/** Only a path on this site: "/account?x=1" stays, "//evil.example" or "https://evil.example" is "/". */
function backTo(value: string | null): string {
  if (!value || !value.startsWith("/")) return "/";
  const url = resolveRedirectTarget(value, { sameOrigin: true });
  return url ? `${url.pathname}${url.search}` : "/";
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await pageRequestContext(request, context); // the origin check, as every form
  const form = await readForm(request);
  const target = backTo(form.get("redirectTo"));
  const language = form.get("lang");
  if (!isOffered(language)) return redirect(target, { headers: ctx.responseHeaders });
  try {
    await enforceRateLimitNoting(ctx.clientIp, "/update-user");
  } catch (thrown) {
    if (!knownError(thrown)) throw thrown;
    return redirect(target, { headers: ctx.responseHeaders }); // a flood changes nothing
  }
  setLanguageCookie(ctx, language);
  const current = await lookAtSession(request, context);
  if (current) {
    const accountId = current.session.impersonatedBy ?? current.user.id;
    // updateMany: an account deleted a moment ago changes nothing (no 500).
    await db.user.updateMany({ where: { id: accountId }, data: { locale: language } });
  }
  return redirect(target, { headers: ctx.responseHeaders });
}
