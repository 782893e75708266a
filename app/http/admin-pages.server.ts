// The console's pages (/admin): shown to admins only; anyone else, signed in or not, gets the same 404 as a page
// that does not exist, so the console's existence is not advertised (ADR 049).
import type { AppLoadContext } from "@remix-run/node";
import { hasPermission } from "~/auth/admin/permissions";
import type { RequestContext } from "~/auth/request-context.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { requestContext } from "~/http/page.server";
import { pageSession } from "~/http/page-session.server";

export function notFound(): Response {
  return new Response("Not found", { status: 404, statusText: "Not Found" });
}

export function isConsoleAdmin(current: SessionWithUser | null): current is SessionWithUser {
  return current !== null && hasPermission(current.user.role, { user: ["list"] });
}

export async function requireConsoleAdmin(request: Request, context: AppLoadContext): Promise<[SessionWithUser, RequestContext]> {
  const ctx = await requestContext(request, context, null);
  const current = await pageSession(ctx, context);
  if (!isConsoleAdmin(current)) throw notFound();
  return [current, ctx];
}
