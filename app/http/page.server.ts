// What page loaders and actions are made of: the same request context as the JSON API, the origin check as a
// plain 403 page, and forms read with bounds (docs/decisions/010-body-and-form-limits.md). The order they are
// used in is page-action.server.ts's (docs/decisions/034-one-page-layer.md).
import type { AppLoadContext } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import type { z } from "zod";
import { knownError } from "~/http/known-error.server";
import { requestContext, type RequestContext } from "~/auth/request-context.server";
import { BodyNotReceivedError, BodyTooLargeError, readCappedText } from "~/http/body.server";

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
