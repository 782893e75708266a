// The session of a page request, read once. Remix runs the root's, the layout's and the page's loaders side by
// side, and each wants to know who is signed in: the first to ask starts the read and the others share it, kept
// on the request's load context (one object per request, handed to every loader of it). Which of them may
// extend the session and re-send its cookie is decided here and nowhere else: the page's own loader
// (`pageSession`). The header and the layouts (`lookAtSession`) only show who is there and never write a cookie.
//
// A page action does not share this read: it may change the session (sign out, a new password), and the page it
// re-renders must not be shown from the session as it was before the action.
import type { AppLoadContext } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { requestContext, type RequestContext } from "~/auth/request-context.server";
import { extendSessionIfDue, lookUpSessionOrEnding, type SessionWithUser } from "~/auth/session/sessions.server";
import { setFlash } from "~/http/flash.server";

/** Told once to a browser whose session was ended elsewhere (revoked from another device, a password change…). */
export const SIGNED_OUT_ELSEWHERE = "You were signed out on this browser, from another device or by a change to your account. Sign in again to go on.";

interface SessionRead {
  /** The stored session, and the cookies the read clears (an expired or unknown one). */
  looked: Promise<{ current: SessionWithUser | null; headers: Headers; endedElsewhere: boolean }>;
  /** The page loader's extension, once asked for. */
  extended?: Promise<{ current: SessionWithUser | null; headers: Headers }>;
}

const reads = new WeakMap<AppLoadContext, SessionRead>();

/** A context for the read alone: loaders judge no origin, and the cookies go where each caller says. */
function readContext(request: Request, context: AppLoadContext | undefined): RequestContext {
  return { request, clientIp: context?.clientIp ?? "unknown", userAgent: request.headers.get("user-agent"), responseHeaders: new Headers() };
}

function readOnce(request: Request, context: AppLoadContext | undefined): SessionRead {
  const known = context ? reads.get(context) : undefined;
  if (known) return known;
  const ctx = readContext(request, context);
  const read: SessionRead = {
    looked: lookUpSessionOrEnding(ctx).then(({ current, endedElsewhere }) => ({ current, endedElsewhere, headers: ctx.responseHeaders })),
  };
  if (context) reads.set(context, read);
  return read;
}

function passCookies(from: Headers, to: Headers): void {
  for (const cookie of from.getSetCookie()) to.append("Set-Cookie", cookie);
}

/** Who is signed in, for the header and the layouts: never extends the session, never writes a cookie. */
export async function lookAtSession(request: Request, context: AppLoadContext | undefined): Promise<SessionWithUser | null> {
  return (await readOnce(request, context).looked).current;
}

/**
 * Whether this browser's session cookie named a session ended elsewhere, and so is being cleared: the cookies
 * that clear it (the page says why once, and the next page does not say it again).
 */
export async function sessionEndedElsewhere(request: Request, context: AppLoadContext | undefined): Promise<Headers | null> {
  const { endedElsewhere, headers } = await readOnce(request, context).looked;
  if (!endedElsewhere) return null;
  const clearing = new Headers();
  passCookies(headers, clearing);
  return clearing;
}

/**
 * The signed-in session for a page's own loader: the one read of this request, extended when due. The cookies
 * it sets or clears are added to `ctx`'s response headers, which the page's answer carries.
 */
export async function pageSession(ctx: RequestContext, context: AppLoadContext | undefined): Promise<SessionWithUser | null> {
  const read = readOnce(ctx.request, context);
  read.extended ??= read.looked.then(async ({ current, headers }) => {
    if (!current) return { current, headers };
    const extending = readContext(ctx.request, context);
    passCookies(headers, extending.responseHeaders);
    return { current: await extendSessionIfDue(extending, current), headers: extending.responseHeaders };
  });
  const { current, headers } = await read.extended;
  passCookies(headers, ctx.responseHeaders);
  return current;
}

/** The signed-in user for a page, or a redirect to /sign-in that comes back here afterwards. */
export async function requirePageSession(request: Request, context: AppLoadContext): Promise<[SessionWithUser, RequestContext]> {
  const ctx = await requestContext(request, context, null);
  const current = await pageSession(ctx, context);
  if (!current) {
    const url = new URL(request.url);
    // A session ended elsewhere: the sign-in page says so (once), rather than just asking to sign in.
    if ((await readOnce(request, context).looked).endedElsewhere) setFlash(ctx.responseHeaders, SIGNED_OUT_ELSEWHERE);
    throw redirect(`/sign-in?redirectTo=${encodeURIComponent(url.pathname + url.search)}`, { headers: ctx.responseHeaders });
  }
  return [current, ctx];
}
