// Helpers for page loaders and actions: the same request context as the JSON API, and domain errors turned
// into form errors (or a 403/429 page) instead of exceptions.
import type { AppLoadContext } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import type { AuthError } from "~/auth/errors";
import { knownError } from "~/http/known-error.server";
import { requestContext, type RequestContext } from "~/auth/request-context.server";
import { getSession, type SessionWithUser } from "~/auth/session.server";
import { BodyTooLargeError, readCappedText } from "~/http/body.server";

export { requestContext };

/**
 * The submitted form, or a 400/413 error page: a body that is not a form (JSON, broken multipart) must not
 * surface as a 500 from `request.formData()`, and an endless one must not be read to the end.
 */
export async function readForm(request: Request): Promise<FormData> {
  let text: string;
  try {
    text = await readCappedText(request);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw new Response("The form is too large.", { status: 413 });
    throw error;
  }
  try {
    return await new Response(text, { headers: { "Content-Type": request.headers.get("content-type") ?? "" } }).formData();
  } catch {
    throw new Response("The form could not be read.", { status: 400 });
  }
}

/** The signed-in user for a page, or a redirect to /sign-in that comes back here afterwards. */
export async function requirePageSession(request: Request, loadContext: AppLoadContext): Promise<[SessionWithUser, RequestContext]> {
  const ctx = await requestContext(request, loadContext, null);
  const session = await getSession(ctx);
  if (!session) {
    const url = new URL(request.url);
    throw redirect(`/sign-in?redirectTo=${encodeURIComponent(url.pathname + url.search)}`, { headers: ctx.responseHeaders });
  }
  return [session, ctx];
}

/**
 * Runs a page action's domain work; an AuthError becomes a form-level error on the submission (status from
 * the catalogue), anything else propagates to the error boundary.
 */
export async function formAction<T>(
  reply: (options: { formErrors?: string[]; fieldErrors?: Record<string, string[]> }) => SubmissionResult<string[]>,
  work: () => Promise<T>,
  fieldFor?: (error: AuthError) => string | undefined,
): Promise<{ ok: true; value: T } | { ok: false; result: SubmissionResult<string[]>; init: ResponseInit }> {
  try {
    return { ok: true, value: await work() };
  } catch (thrown) {
    const error = knownError(thrown);
    if (!error) throw thrown;
    const field = fieldFor?.(error);
    const result = field ? reply({ fieldErrors: { [field]: [error.message] } }) : reply({ formErrors: [error.message] });
    return { ok: false, result, init: { status: error.status, headers: error.headers } };
  }
}
