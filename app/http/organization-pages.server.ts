// Loader helpers shared by the organization pages and the account area's switcher.
import type { AppLoadContext } from "@remix-run/node";
import { switcherData } from "~/auth/organization/organizations.server";
import { lookAtSession } from "~/http/page-session.server";

/** The switcher's data, or null when signed out (the page itself decides whether to send to /sign-in). */
export async function switcherLoader(request: Request, context: AppLoadContext) {
  return switcherData(await lookAtSession(request, context));
}
