// Every page action, in one pipeline. A page declares what it accepts as intents, as data: the zod schema of the
// form (the one the browser uses too), the API path whose rate-limit bucket it shares, whether it needs a
// session, where a refusal is shown, and the work. The checks run in one order, written here once
// (docs/decisions/034-one-page-layer.md):
//
//   origin → bounded read → which intent → rate limit → session → the intent's fields parsed → run → answer
//
// A success that moves on is a post/redirect/get with its confirmation as a one-time message (`goTo`); any
// other success, and every refusal, comes back to the page as an outcome for it to show. Refusals are in words
// for people (`wordsFor`), next to the field they are about, and title the page "Error: …" (ADR 013, 014).
import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { data, redirect, type AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import type { AuthError } from "~/auth/errors";
import { noteWhoActs, refuseWhileImpersonating } from "~/auth/admin/impersonation-guard.server";
import { enforceRateLimitNoting, type RequestContext } from "~/auth/request-context.server";
import { getSession, type SessionWithUser } from "~/auth/session/sessions.server";
import { flashPathOf, setFlash, type FlashContent } from "~/http/flash.server";
import { knownError } from "~/http/known-error.server";
import { formErrorResult, markFormFailed, pageRequestContext, readForm, type SubmittedForm } from "~/http/page.server";
import { wordsFor } from "~/http/page-messages.server";
import { confirmItsYouUrl } from "~/auth/step-up/recently-verified.server";
import { holdRefusal } from "~/auth/sign-in/hasher-queue.server";
import { log } from "~/observability/log.server";

/** "required": signed out is sent to sign in and back here; "none": the intent reads no session. */
export type SessionNeed = "required" | "none";
type CurrentFor<N extends SessionNeed> = N extends "required" ? SessionWithUser : null;

export interface PageIntent<S extends z.ZodObject = z.ZodObject, N extends SessionNeed = SessionNeed, T = unknown> {
  schema: S;
  /** The API path whose rate-limit bucket this intent shares (a page and its JSON twin count together). */
  rateLimitAs: string;
  session: N;
  /** Fields never echoed back (passwords). */
  hideFields?: string[];
  /**
   * Fields a rate-limited answer still carries back (e.g. the address behind a hidden field), so the page can
   * offer the next try instead of a dead end. Never secrets: they are echoed into the page.
   */
  keepWhenLimited?: readonly string[];
  /** Which field a refusal belongs next to; form-level when undefined. */
  fieldFor?: (error: AuthError) => string | undefined;
  /** "page": a refusal is also shown at the page's level (`error`), for a button with no fields of its own. */
  refusalShown?: "form" | "page";
  run: (value: z.output<S>, current: CurrentFor<N>, ctx: RequestContext) => Promise<T>;
}

/** Declares one intent; its `session` says what `run` is handed (overloads, so a caller's context cannot widen it). */
export function intent<S extends z.ZodObject, T>(spec: PageIntent<S, "required", T>): PageIntent<S, "required", T>;
export function intent<S extends z.ZodObject, T>(spec: PageIntent<S, "none", T>): PageIntent<S, "none", T>;
export function intent(spec: PageIntent) {
  return spec;
}

/** A success that moves on: to `location`, with `flash` as the next page's one-time confirmation. */
export class GoTo {
  constructor(
    readonly location: string,
    readonly flash?: string,
    readonly extra: Omit<FlashContent, "text"> = {},
  ) {}
}
export const goTo = (location: string, flash?: string, extra?: Omit<FlashContent, "text">) => new GoTo(location, flash, extra);

export type PageFailure = {
  ok: false;
  /** The intent that was refused, or null when the post named none of the page's. */
  intent: string | null;
  /**
   * Where it stopped: before any field was parsed (limited, unknown), at the schema, in the work (refused), or
   * on a fault of ours in the work (failed: a 500 that still gives the form back as it was typed).
   */
  stage: "limited" | "unknown" | "invalid" | "refused" | "failed";
  /** The form's answer; for a post refused before parsing, a form-level error with the kept fields. */
  result: SubmissionResult<string[]>;
  /** The refusal in words for people, when a page may show it above its forms. */
  words?: string;
  init: { status: number; headers: Headers };
  /** The form as posted (flat, bounded), for a page that says which row a refusal is about. */
  form: SubmittedForm;
};

export type PageOutcome<T> =
  | {
      ok: true;
      intent: string;
      value: T;
      ctx: RequestContext;
      form: SubmittedForm;
      reply: (options?: { resetForm?: boolean }) => SubmissionResult<string[]>;
    }
  | PageFailure;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each intent has its own schema and answer
type Intents = Record<string, PageIntent<any, any, any>>;
type ValueOf<I extends Intents> = Exclude<Awaited<ReturnType<I[keyof I]["run"]>>, GoTo>;
/** What a page gets back: only refusals when every success moves on. */
type OutcomeOf<T> = [T] extends [never] ? PageFailure : PageOutcome<T>;

export interface ChooseIntent {
  /** The intent's name as posted; the form's `intent` field unless a page says otherwise. */
  choose?: (form: SubmittedForm, url: URL) => string | null;
  /** The intent a name no intent has stands for; without one, such a post is refused. */
  otherwise?: string;
  /** The bucket a post naming no intent counts against. */
  unknownRateLimitAs?: string;
}

/** Refusals that a recent confirmation (/reverify) would have let through. */
const NEEDS_CONFIRMATION = new Set(["SESSION_IS_NOT_FRESH", "SESSION_EXPIRED_REAUTHENTICATE_TO_PERFORM_THIS_ACTION"]);
const CONFIRM_FIRST = "For your safety, confirm it's you first. Then you'll come back to the page and can try again.";

const UNKNOWN_INTENT = "Something went wrong with that button. Reload the page and try again.";

/** A fault of ours while doing what the form asked: what was typed is kept, and the button tries again. */
export const SERVER_TROUBLE = "Something went wrong on our side, so this may not have been done. What you typed is still here: try again.";

/** Longest value a rate-limited answer echoes back: enough for any address, never a whole body. */
const MAX_KEPT_VALUE = 320;

/**
 * The page a form was posted from: its path and query, without the `?index` Remix adds for index routes (and
 * with one leading slash, so a path like "//host" cannot become another site's address).
 */
export function pageThatPosted(request: Request): string {
  const url = new URL(request.url);
  url.searchParams.delete("index");
  return `/${url.pathname.replace(/^\/+/, "")}${url.search}`;
}

/** The page's action: the intent posted, through every check in order, answered as `OutcomeOf` says. */
export function pageAction<I extends Intents>(
  args: { request: Request; context: AppLoadContext },
  intents: I,
  options: ChooseIntent = {},
): Promise<OutcomeOf<ValueOf<I>>> {
  return pipeline(args, intents, options) as Promise<OutcomeOf<ValueOf<I>>>;
}

async function pipeline(
  { request, context }: { request: Request; context: AppLoadContext },
  intents: Intents,
  options: ChooseIntent,
): Promise<PageOutcome<unknown>> {
  const ctx = await pageRequestContext(request, context);
  const form = await readForm(request);
  ctx.captchaResponse = form.get("altcha") ?? undefined; // proof of work's form field (ADR 060)
  const url = new URL(request.url);
  const chosen = (options.choose ? options.choose(form, url) : form.get("intent")) ?? "";
  const name = Object.hasOwn(intents, chosen) ? chosen : (options.otherwise ?? null);
  const spec = name === null ? undefined : intents[name];

  const fail = (stage: PageFailure["stage"], result: SubmissionResult<string[]>, status: number, extra: { words?: string; headers?: Record<string, string> } = {}): PageFailure => {
    markFormFailed(context);
    for (const [header, value] of Object.entries(extra.headers ?? {})) ctx.responseHeaders.set(header, value);
    return { ok: false, intent: name, stage, result, words: extra.words, init: { status, headers: ctx.responseHeaders }, form };
  };

  try {
    await enforceRateLimitNoting(ctx.clientIp, spec?.rateLimitAs ?? options.unknownRateLimitAs ?? "/unknown");
  } catch (thrown) {
    const error = knownError(thrown);
    if (!error) throw thrown;
    const words = wordsFor(error);
    return fail("limited", formErrorResult(words, keptFields(form, spec?.keepWhenLimited)), error.status, { words, headers: error.headers });
  }
  if (!spec) return fail("unknown", formErrorResult(UNKNOWN_INTENT), 400, { words: UNKNOWN_INTENT });

  let current: SessionWithUser | null = null;
  if (spec.session === "required") {
    current = await getSession(ctx);
    if (!current) throw redirect(`/sign-in?redirectTo=${encodeURIComponent(pageThatPosted(request))}`, { headers: ctx.responseHeaders });
  }

  const submission = parseWithZod(form.pick(spec.schema), { schema: spec.schema });
  if (submission.status !== "success") return fail("invalid", submission.reply({ hideFields: spec.hideFields }), 400);

  let value: unknown;
  try {
    // The same rule as the intent's JSON twin: an admin acting as the user cannot change its ways in (ADR 049),
    // and what the intent records names the admin (ADR 050).
    await noteWhoActs(ctx, { current });
    refuseWhileImpersonating(spec.rateLimitAs, current);
    value = await spec.run(submission.value, current, ctx);
  } catch (thrown) {
    const error = knownError(thrown);
    if (!error) {
      // Not a refusal but a fault (the database away, a bug): logged in full as any other, and answered with
      // the page and its form as sent (passwords excepted), so nothing has to be typed again.
      if (thrown instanceof Response) throw thrown;
      log.error({ requestId: ctx.note?.requestId, err: thrown }, "unexpected error in a page action");
      const result = submission.reply({ hideFields: spec.hideFields, formErrors: [SERVER_TROUBLE] });
      return fail("failed", result, 500, { words: spec.refusalShown === "page" ? SERVER_TROUBLE : undefined });
    }
    // A step-up refusal (ADR 059) is a detour, not a dead end: confirm it's you, then back to this page.
    if (current && NEEDS_CONFIRMATION.has(error.code)) {
      setFlash(ctx.responseHeaders, CONFIRM_FIRST);
      throw redirect(confirmItsYouUrl(pageThatPosted(request)), { headers: ctx.responseHeaders });
    }
    await holdRefusal(error); // a busy hasher's refusal is answered after a pause (ADR 061)
    const field = spec.fieldFor?.(error);
    const words = wordsFor(error);
    const result = submission.reply({ hideFields: spec.hideFields, ...(field ? { fieldErrors: { [field]: [words] } } : { formErrors: [words] }) });
    return fail("refused", result, error.status, { words: spec.refusalShown === "page" ? words : undefined, headers: error.headers });
  }
  if (value instanceof GoTo) {
    // For the page it redirects to and no other (flash.server.ts `for`).
    if (value.flash) setFlash(ctx.responseHeaders, value.flash, { for: flashPathOf(value.location), ...value.extra });
    throw redirect(value.location, { headers: ctx.responseHeaders });
  }
  return { ok: true, intent: name!, value, ctx, form, reply: (replyOptions) => submission.reply(replyOptions) };
}

/** A page with one form: the same pipeline, with no intent to choose. */
export function pageForm<S extends z.ZodObject, N extends SessionNeed, T>(
  args: { request: Request; context: AppLoadContext },
  spec: PageIntent<S, N, T>,
): Promise<OutcomeOf<Exclude<T, GoTo>>> {
  return pageAction(args, { form: spec }, { choose: () => "form" }) as Promise<OutcomeOf<Exclude<T, GoTo>>>;
}

/**
 * The answer of a page whose forms are told apart by intent (the account and organization pages): the intent
 * that was refused, its form's answer once parsed, and words for the page's own error summary when nothing was
 * parsed (rate limit, unknown intent) or the intent's refusal is shown there. A success that did not move on
 * answers the intent alone.
 */
export function answerIntent<T, E extends object = object>(outcome: PageOutcome<T>, extra: E = {} as E) {
  type Answer = { intent: string | null; result?: SubmissionResult<string[]>; error?: string } & E;
  if (outcome.ok) return data<Answer>({ intent: outcome.intent, ...extra }, { headers: outcome.ctx.responseHeaders });
  const parsed = outcome.stage === "invalid" || outcome.stage === "refused" || outcome.stage === "failed";
  return data<Answer>(
    {
      intent: outcome.intent,
      ...extra,
      ...(parsed ? { result: outcome.result } : {}),
      ...(outcome.words !== undefined ? { error: outcome.words } : {}),
    },
    outcome.init,
  );
}

/** The named fields of a form refused before it was parsed, as the user sent them; nothing else is looked at. */
function keptFields(form: SubmittedForm, names: readonly string[] | undefined): Record<string, string> | undefined {
  if (!names?.length) return undefined;
  const kept: Record<string, string> = {};
  for (const name of names) {
    const value = form.get(name);
    if (value !== null) kept[name] = value.slice(0, MAX_KEPT_VALUE);
  }
  return kept;
}
