// Helpers for page loaders and actions: the same request context as the JSON API, forms read with bounds, and
// domain errors turned into form errors (or a 403 page) instead of exceptions. See
// docs/decisions/010-body-and-form-limits.md for the order of the checks and the limits.
import type { AppLoadContext } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import type { AuthError } from "~/auth/errors";
import { enforceRateLimit } from "~/auth/rate-limit.server";
import { knownError } from "~/http/known-error.server";
import { requestContext, type RequestContext } from "~/auth/request-context.server";
import { getSession, type SessionWithUser } from "~/auth/session.server";
import { BodyNotReceivedError, BodyTooLargeError, readCappedText } from "~/http/body.server";
import { wordsFor } from "~/http/page-messages.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** Set by a page action that answers with errors, so the page's title says so (see components/page-title). */
    formFailed?: boolean;
  }
}

/** Marks this request's page as answered with errors: its title is then prefixed "Error: ". */
export function markFormFailed(loadContext: AppLoadContext): void {
  loadContext.formFailed = true;
}

export { requestContext };

/** No page form has more than a handful of fields; a few hundred entries is already abuse. */
export const MAX_FORM_ENTRIES = 256;

/**
 * A submitted form, read once within the body cap into flat name/value pairs. Names are never interpreted
 * (no "a[9]" arrays, no "a.b" nesting): only `pick` hands fields on, and only the ones a schema names.
 */
export class SubmittedForm {
  constructor(private readonly entries: ReadonlyArray<readonly [string, string]>) {}

  get(name: string): string | null {
    return this.entries.find(([key]) => key === name)?.[1] ?? null;
  }

  /** A FormData of the fields `schema` names, in their submitted order; everything else is dropped. */
  pick(schema: z.ZodObject): FormData {
    const wanted = new Set(Object.keys(schema.shape));
    const picked = new FormData();
    for (const [name, value] of this.entries) if (wanted.has(name)) picked.append(name, value);
    return picked;
  }
}

function refuse(status: number, message: string): Response {
  return new Response(message, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
}

/**
 * Reads a page form: a 413 past the body cap, a 400 for anything but a form (JSON, broken multipart, too many
 * fields). File parts are dropped: no page takes uploads.
 */
export async function readForm(request: Request): Promise<SubmittedForm> {
  let text: string;
  try {
    text = await readCappedText(request);
  } catch (error) {
    if (error instanceof BodyTooLargeError) throw refuse(413, "The form is too large.");
    if (error instanceof BodyNotReceivedError) throw refuse(400, "The form did not arrive whole.");
    throw error;
  }
  const type = request.headers.get("content-type") ?? "";
  let entries: Array<[string, string]>;
  if (/^application\/x-www-form-urlencoded\b/i.test(type) || (type === "" && text === "")) {
    entries = [...new URLSearchParams(text)];
  } else if (/^multipart\/form-data\b/i.test(type)) {
    try {
      const data = await new Response(text, { headers: { "Content-Type": type } }).formData();
      entries = [...data].filter((entry): entry is [string, string] => typeof entry[1] === "string");
    } catch {
      throw refuse(400, "The form could not be read.");
    }
  } else {
    throw refuse(400, "The form could not be read.");
  }
  if (entries.length > MAX_FORM_ENTRIES) throw refuse(400, "The form has too many fields.");
  return new SubmittedForm(entries);
}

/** The origin check for a page action: a refused origin is a plain 403 page, not a form error. */
export async function pageRequestContext(request: Request, loadContext: AppLoadContext): Promise<RequestContext> {
  try {
    return await requestContext(request, loadContext, null);
  } catch (thrown) {
    const error = knownError(thrown);
    if (error) throw refuse(error.status, error.message);
    throw thrown;
  }
}

/**
 * A form-level error with no submission behind it (the form was not parsed, e.g. when rate-limited), with the
 * values of any fields the page must keep so the next try needs no retyping.
 */
export function formErrorResult(message: string, initialValue?: Record<string, string>): SubmissionResult<string[]> {
  return { status: "error", ...(initialValue ? { initialValue } : {}), error: { "": [message] } };
}

/** Longest value a rate-limited answer echoes back: enough for any address, never a whole body. */
const MAX_KEPT_VALUE = 320;

/**
 * The named fields of a form that was refused before it was parsed, as the user sent them. The read is the
 * same bounded one as always (a body that cannot be read keeps nothing); nothing else in the form is looked at.
 */
async function keptFields(request: Request, names: readonly string[]): Promise<Record<string, string> | undefined> {
  let form: SubmittedForm;
  try {
    form = await readForm(request);
  } catch (thrown) {
    if (thrown instanceof Response) return undefined;
    throw thrown;
  }
  const kept: Record<string, string> = {};
  for (const name of names) {
    const value = form.get(name);
    if (value !== null) kept[name] = value.slice(0, MAX_KEPT_VALUE);
  }
  return kept;
}

export type FormOutcome<T> =
  | { ok: true; value: T; ctx: RequestContext; reply: (options?: { resetForm?: boolean }) => SubmissionResult<string[]> }
  | { ok: false; result: SubmissionResult<string[]>; init: ResponseInit };

/**
 * A page action, in the order that keeps hostile input cheap: origin check, rate limit (counted before the body
 * is read), the bounded read, the schema's own fields parsed, then the domain work. An AuthError from the work
 * becomes an error next to `fieldFor`'s field, or a form-level one, with the catalogue's status.
 */
export async function handleForm<S extends z.ZodObject, T>(options: {
  request: Request;
  context: AppLoadContext;
  /** The API path whose rate-limit bucket this action shares (a page and its JSON twin count together). */
  rateLimitAs: string;
  schema: S;
  hideFields?: string[];
  /**
   * Fields a rate-limited answer still carries back (e.g. the address behind a hidden field), so the page can
   * offer the next try instead of a dead end. Never secrets: they are echoed into the page.
   */
  keepWhenLimited?: readonly string[];
  fieldFor?: (error: AuthError) => string | undefined;
  run: (value: z.output<S>, ctx: RequestContext) => Promise<T>;
}): Promise<FormOutcome<T>> {
  const ctx = await pageRequestContext(options.request, options.context);
  try {
    await enforceRateLimit(ctx.clientIp, options.rateLimitAs);
  } catch (thrown) {
    const error = knownError(thrown);
    if (!error) throw thrown;
    markFormFailed(options.context);
    const kept = options.keepWhenLimited?.length ? await keptFields(options.request, options.keepWhenLimited) : undefined;
    return { ok: false, result: formErrorResult(wordsFor(error), kept), init: { status: error.status, headers: error.headers } };
  }
  const form = await readForm(options.request);
  const submission = parseWithZod(form.pick(options.schema), { schema: options.schema });
  if (submission.status !== "success") {
    markFormFailed(options.context);
    return { ok: false, result: submission.reply({ hideFields: options.hideFields }), init: { status: 400, headers: ctx.responseHeaders } };
  }
  try {
    return { ok: true, value: await options.run(submission.value as z.output<S>, ctx), ctx, reply: (replyOptions) => submission.reply(replyOptions) };
  } catch (thrown) {
    const error = knownError(thrown);
    if (!error) throw thrown;
    markFormFailed(options.context);
    const field = options.fieldFor?.(error);
    const message = wordsFor(error);
    const result = submission.reply({
      hideFields: options.hideFields,
      ...(field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }),
    });
    const headers = new Headers(ctx.responseHeaders);
    for (const [name, value] of Object.entries(error.headers)) headers.set(name, value);
    return { ok: false, result, init: { status: error.status, headers } };
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
