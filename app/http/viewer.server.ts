// Who is signed in, for the page header on every page: the user's id, name and when the user last changed (the
// root loader's data is in every page's HTML, so nothing more leaves the server this way). A read-only look at the session: never
// extends it or writes cookies — the page's own loader does that — and never refuses the request.
import type { AppLoadContext } from "@remix-run/node";
import type { RequestContext } from "~/auth/request-context.server";
import { getSession } from "~/auth/session.server";

export interface Viewer {
  id: string;
  name: string;
  /** Changes whenever the user does (name, e-mail, two-factor…): the header then tells the other tabs. */
  updatedAt: string;
}

export async function viewerOf(request: Request, loadContext: AppLoadContext): Promise<Viewer | null> {
  // Not requestContext(): it checks the origin of writes, and the root loader also runs under a page's
  // no-JavaScript POST, whose action has already judged it.
  const ctx: RequestContext = { request, clientIp: loadContext.clientIp ?? "unknown", userAgent: null, responseHeaders: new Headers() };
  const current = await getSession(ctx, { disableRefresh: true });
  return current ? { id: current.user.id, name: current.user.name, updatedAt: new Date(current.user.updatedAt).toISOString() } : null;
}
