// The loader side of every account page: the signed-in user (or a redirect to sign in and back), the page's
// one-time message from the action that redirected here, and the session cookie's refresh headers.
import type { AppLoadContext } from "@remix-run/node";
import { data } from "@remix-run/node";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import type { RequestContext } from "~/auth/request-context.server";
import { takeFlashNotice } from "~/http/flash.server";
import { requirePageSession } from "~/http/page-session.server";

export async function loadAccountPage<T extends object>(
  request: Request,
  context: AppLoadContext,
  load: (current: SessionWithUser, ctx: RequestContext) => Promise<T> | T,
) {
  const [current, ctx] = await requirePageSession(request, context);
  const flash = takeFlashNotice(request, ctx.responseHeaders);
  const { user } = current;
  return data(
    {
      user: { name: user.name, email: user.email, image: user.image, emailVerified: user.emailVerified, username: user.displayUsername ?? user.username },
      flash,
      ...(await load(current, ctx)),
    },
    { headers: ctx.responseHeaders },
  );
}
