// Who is signed in, for the page header on every page: the user's id, name and when the user last changed (the
// root loader's data is in every page's HTML, so nothing more leaves the server this way). It shares the
// request's one session read and never refuses the request (page-session.server.ts).
import type { AppLoadContext } from "@remix-run/node";
import { isAdminRole } from "~/auth/admin/permissions";
import { lookAtSession } from "~/http/page-session.server";

export interface Viewer {
  id: string;
  name: string;
  /** Shown when the account has no name (one made by a sign-in code, before the welcome step was filled in). */
  email: string;
  /** Changes whenever the user does (name, e-mail, two-factor…): the header then tells the other tabs. */
  updatedAt: string;
  /** Shown "Admin" in the account menu (the console itself checks again). */
  admin: boolean;
  /** An admin is acting as this user: every page shows the banner with "Stop" (ADR 049). */
  impersonated: boolean;
}

export async function viewerOf(request: Request, loadContext: AppLoadContext): Promise<Viewer | null> {
  const current = await lookAtSession(request, loadContext);
  if (!current) return null;
  const { user, session } = current;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    updatedAt: new Date(user.updatedAt).toISOString(),
    admin: isAdminRole(user.role),
    impersonated: Boolean(session.impersonatedBy),
  };
}
