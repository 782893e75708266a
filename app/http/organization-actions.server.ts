// Form actions of the organization pages (/organizations, /organizations/{slug}, /invitations/{id}): the same
// order as the account page's (origin, bounded read, the intent's rate-limit bucket, its own schema's fields),
// and the same domain functions as the JSON API. Errors come back as form errors of the intent submitted; a
// success is a post/redirect/get, to the page that posted unless the intent names another, with its
// confirmation as a one-time message the page shows focused at its top (docs/decisions/013).
import { parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import type { AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import { enforceRateLimit } from "~/auth/rate-limit.server";
import type { RequestContext } from "~/auth/request-context.server";
import { getSession, type SessionWithUser } from "~/auth/session.server";
import { knownError } from "~/http/known-error.server";
import { wordsFor } from "~/http/page-messages.server";
import { markFormFailed, pageRequestContext, readForm } from "~/http/page.server";
import { setFlash, type FlashLink } from "~/http/flash.server";

/**
 * The page a form was posted from: its path and query, without the `?index` Remix adds for index routes (and
 * with one leading slash, so a path like "//host" cannot become another site's address).
 */
function pageThatPosted(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  return `/${url.pathname.replace(/^\/+/, "")}${url.search}`;
}

export interface IntentSpec<S extends z.ZodObject> {
  schema: S;
  /** The API path whose rate-limit bucket this action shares. */
  rateLimitAs: string;
  /** Signed out is allowed (the handler gets null). */
  anonymous?: boolean;
  /** `message` is the confirmation shown after the redirect; `redirect` a page other than the one that posted. */
  run: (value: z.infer<S>, current: SessionWithUser | null, ctx: RequestContext) => Promise<{ message?: string; redirect?: string; link?: FlashLink }>;
}

export const intent = <S extends z.ZodObject>(spec: IntentSpec<S>) => spec;

export interface IntentResult {
  intent: string | null;
  /** Which row a row-level form was about (a member's or an invitation's id). */
  target?: string | null;
  result?: SubmissionResult<string[]>;
  error?: string;
}

export type IntentOutcome =
  | { kind: "reply"; status: number; body: IntentResult; headers: Headers }
  | { kind: "redirect"; location: string; headers: Headers };

export async function runIntent(
  request: Request,
  loadContext: AppLoadContext,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- each intent has its own schema
  intents: Record<string, IntentSpec<any>>,
): Promise<IntentOutcome> {
  const ctx = await pageRequestContext(request, loadContext);
  const form = await readForm(request);
  const name = form.get("intent") ?? "";
  const target = form.get("memberId") ?? form.get("invitationId");
  const spec = Object.hasOwn(intents, name) ? intents[name] : undefined;
  const reply = (status: number, body: Omit<IntentResult, "intent" | "target">, extra: Record<string, string> = {}): IntentOutcome => {
    for (const [header, value] of Object.entries(extra)) ctx.responseHeaders.set(header, value);
    // A refusal titles the page "Error: …", as every other form's does.
    if (status >= 400) markFormFailed(loadContext);
    return { kind: "reply", status, body: { intent: spec ? name : null, target, ...body }, headers: ctx.responseHeaders };
  };
  try {
    await enforceRateLimit(ctx.clientIp, spec?.rateLimitAs ?? "/organization/unknown");
  } catch (thrown) {
    const error = knownError(thrown);
    if (!error) throw thrown;
    return reply(error.status, { error: wordsFor(error) }, error.headers);
  }
  if (!spec) return reply(400, { error: "Unknown action" });
  const current = await getSession(ctx);
  if (!current && !spec.anonymous) {
    const url = new URL(request.url);
    return { kind: "redirect", location: `/sign-in?redirectTo=${encodeURIComponent(url.pathname + url.search)}`, headers: ctx.responseHeaders };
  }
  const submission = parseWithZod(form.pick(spec.schema), { schema: spec.schema });
  if (submission.status !== "success") return reply(400, { result: submission.reply() });
  try {
    const outcome = await spec.run(submission.value, current, ctx);
    if (outcome.message) setFlash(ctx.responseHeaders, outcome.message, outcome.link ? { link: outcome.link } : {});
    return { kind: "redirect", location: outcome.redirect ?? pageThatPosted(request), headers: ctx.responseHeaders };
  } catch (thrown) {
    const error = knownError(thrown);
    if (!error) throw thrown;
    const words = wordsFor(error);
    return reply(error.status, { result: submission.reply({ formErrors: [words] }), error: words }, error.headers);
  }
}
