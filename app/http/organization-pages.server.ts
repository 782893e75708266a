// Loader helpers shared by the organization pages and the account area's switcher.
import type { AppLoadContext } from "@remix-run/node";
import { switcherData } from "~/auth/organization/organizations.server";
import { getSession } from "~/auth/session.server";
import { requestContext } from "~/http/page.server";

/** The switcher's data, or null when signed out (the page itself decides whether to send to /sign-in). */
export async function switcherLoader(request: Request, context: AppLoadContext) {
  const ctx = await requestContext(request, context, null);
  // No refresh here: the page's own loader extends the session and sends the cookie.
  return switcherData(await getSession(ctx, { disableRefresh: true }));
}
