// The one helper every /api/auth resource route is built with. Remix v2 has no middleware, so this carries what
// each endpoint needs: method, body/query validation with zod, origin and callback-URL checks, the rate limit,
// and turning any failure into `{code, message}` with the right status — never a 500 for bad input, never a
// stack trace. Route files stay a few lines long.
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { AuthError } from "~/auth/errors";
import { withQuery } from "~/auth/core/links.server";
import { assertSafeCallbacks } from "~/auth/origin.server";
import { isKeptFromImpersonators, refuseImpersonatorAt } from "~/auth/admin/impersonation-guard.server";
import { ruleFor, standingRefusal } from "~/auth/rate-limit/limits.server";
import { hasherRefusalBeforeRequest } from "~/auth/sign-in/password-lockout.server";
import { holdRefusal, refusalHoldMs } from "~/auth/sign-in/hasher-queue.server";
import { jsonText } from "~/auth/core/json-text.server";
import { log } from "~/observability/log.server";
import { noteUser, requestFields, type RequestNote } from "~/observability/request-note.server";
import { requestContext, type RequestContext } from "~/auth/request-context.server";
import { wantsPage } from "~/http/accept.server";
import { readCappedText } from "~/http/body.server";
import { knownError } from "~/http/known-error.server";
import { TextResponse } from "~/http/text-response.server";
import { inRequestLanguage } from "~/i18n/api-errors.server";

export const API_BASE_PATH = "/api/auth";

interface EndpointDefinition<Body extends z.ZodType, Query extends z.ZodType, Result extends Promise<unknown>> {
  method: "GET" | "POST";
  /**
   * A capability an operator may turn off (AUTH_TEAMS, AUTH_CUSTOM_ROLES): while this answers false, the route
   * answers exactly as a path without a route does (404 NOT_FOUND), before its method, body or session are read.
   */
  available?: () => boolean;
  /**
   * A GET that changes something (follows an e-mailed link: uses up a token, deletes an account). Mail scanners
   * and link previews send HEAD to such links, so HEAD answers without running the handler.
   */
  changesState?: boolean;
  body?: Body;
  query?: Query;
  handler: (input: {
    body: z.infer<Body>;
    query: z.infer<Query>;
    ctx: RequestContext;
    params: Record<string, string | undefined>;
  }) => Result;
  /**
   * For a link people open from a mail: the page a browser (one that asks for HTML) lands on, with
   * `?error=<code in lower case>`, when the request is refused with a 4xx anywhere the handler does not answer
   * it itself — too many requests, a callbackURL no longer trusted, a malformed query — rather than a JSON body.
   * Clients asking for JSON keep Better Auth's answers.
   */
  landingPage?: string;
  /**
   * A GET's answer when it can be given from this process's memory alone, synchronously, with nothing to write
   * and no cookie to set: exactly what `handler` would answer then, or null for "run the handler". The
   * production dispatch asks it before any Fetch Request is made (ADR 054); only paths without a rate limit
   * may have one.
   */
  fromMemory?: (input: { query: z.infer<Query>; cookieHeader: string | undefined }) => unknown;
}

/** A GET's answer from memory, as the production dispatch writes it: status 200, `JSON_HEADERS` and this text. */
/** `note`: the request's log line, told who the answer is about (ADR 062). */
export type MemoryAnswer = (pathname: string, search: string, cookieHeader: string | undefined, note?: RequestNote) => string | null;

/**
 * A route's loader/action, carrying (in its type only) what the endpoint takes and answers, so the typed
 * browser client (app/client) infers its arguments and results from the server's own schemas and handlers:
 * `typeof import("~/routes/api.auth.x")` is a type-only reference, erased from the bundle, and a server change that
 * breaks a client call fails the typecheck (docs/decisions/022-typed-client.md).
 */
export type EndpointHandler<Body extends z.ZodType, Query extends z.ZodType, Result> = ((
  args: LoaderFunctionArgs | ActionFunctionArgs,
) => Promise<Response>) & {
  readonly "~endpoint"?: { body: z.input<Body>; query: z.input<Query>; result: Awaited<Result> };
  /** Set on a GET loader whose route declared `fromMemory`. */
  readonly fromMemory?: MemoryAnswer;
  /** Set on a loader whose route has a `landingPage`: the dispatch leaves its refusals to it, pages included. */
  readonly refusesWithPages?: boolean;
};

/** What the endpoint accepts as its JSON body (before the server's parsing: `z.input`). */
export type EndpointBody<Handler> = Handler extends { readonly "~endpoint"?: { body: infer Body } } ? Body : never;
/** What the endpoint accepts as its query. */
export type EndpointQuery<Handler> = Handler extends { readonly "~endpoint"?: { query: infer Query } } ? Query : never;
/** What the handler returns, before JSON serialization (a Response it returns is a redirect, not data). */
export type EndpointResult<Handler> = Handler extends { readonly "~endpoint"?: { result: infer Result } } ? Exclude<Result, Response> : never;

/** "[body.email] Invalid email address; [body.password] …", as Better Auth 1.7 words validation failures. */
function describeIssues(where: "body" | "query", error: z.ZodError): string {
  return error.issues.map((issue) => `[${[where, ...issue.path].join(".")}] ${issue.message}`).join("; ");
}

async function readBody(request: Request, loadContext: AppLoadContext): Promise<unknown> {
  const type = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase() ?? "";
  // A body over the cap or cut short throws its own error, which knownError() answers (413, 400).
  const text = await readCappedText(request, loadContext);
  if (text.trim() === "") return {};
  if (type === "application/json" || type === "") {
    try {
      return JSON.parse(text);
    } catch {
      throw new AuthError("INVALID_JSON");
    }
  }
  if (type === "application/x-www-form-urlencoded") return Object.fromEntries(new URLSearchParams(text));
  throw new AuthError("UNSUPPORTED_MEDIA_TYPE");
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: "body" | "query"): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new AuthError("VALIDATION_ERROR", { message: describeIssues(where, result.error) });
  return result.data;
}

/**
 * The API path a request is rate-limited under. Routes match case-insensitively, decoded and with or without
 * a trailing slash, so "/SIGN-IN/Email/" and "/sign-in/%65mail" must share "/sign-in/email"'s bucket.
 */
export function rateLimitPath(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURIComponent(pathname);
  } catch {
    // malformed escapes: the raw spelling is still one bucket
  }
  return path.toLowerCase().replace(/\/+$/, "").slice(API_BASE_PATH.length) || "/";
}

/** What every JSON answer of the API carries (the dispatch writes them for an answer from memory too). */
export const JSON_HEADERS: readonly (readonly [string, string])[] = Object.freeze([
  Object.freeze(["Content-Type", "application/json; charset=utf-8"] as const),
  Object.freeze(["Cache-Control", "no-store"] as const),
]);

export function json(data: unknown, init: { status?: number; headers?: Headers } = {}): Response {
  // One list handed to the Response, which copies it once: a Headers made here first would be copied twice.
  const headers: [string, string][] = JSON_HEADERS.map(([name, value]) => [name, value]);
  if (init.headers) {
    for (const pair of init.headers) if (pair[0] !== "content-type" && pair[0] !== "cache-control") headers.push(pair);
  }
  return new TextResponse(jsonText(data), { status: init.status ?? 200, headers });
}

/**
 * Any thrown value as a response: catalogue errors as themselves, everything else as a 500 logged with the
 * request's id (`context`, ADR 062).
 */
export function errorResponse(error: unknown, responseHeaders?: Headers, context?: AppLoadContext): Response {
  if (error instanceof Response) return error;
  let authError = knownError(error);
  if (!authError) {
    log.error({ ...requestFields(context), err: error }, "unexpected error");
    authError = new AuthError("INTERNAL_SERVER_ERROR");
  }
  const headers = new Headers(responseHeaders);
  for (const [name, value] of Object.entries(authError.headers)) headers.set(name, value);
  return json(authError.toJSON(), { status: authError.status, headers });
}

/**
 * The answer to an API request from a client this process already refused on that path, or null: asked by the
 * production dispatch (server/api-dispatch.mjs, through the entry module's `apiDispatch`) before a Fetch Request
 * is even built. The same 429 the endpoint would give; it comes before the method and origin checks, which a
 * refused client does not need.
 */
export function earlyRefusal(clientIp: string, pathname: string, cookieHeader?: string): Response | null {
  const path = rateLimitPath(pathname);
  // A password sign-in from a browser with no device cookie while the hasher has no room for strangers (ADR 061).
  const refusal = standingRefusal(clientIp, path) ?? hasherRefusalBeforeRequest(path, cookieHeader);
  if (!refusal) return null;
  const response = errorResponse(refusal);
  const hold = refusalHoldMs(refusal);
  if (hold > 0) heldRefusals.set(response, hold);
  return response;
}

/** Early refusals the dispatch sends only after a pause (a busy hasher's, ADR 061), and how long. */
const heldRefusals = new WeakMap<Response, number>();

/** For the production dispatch: how long to wait before sending an early refusal (0: at once). */
export function earlyRefusalHoldMs(response: Response): number {
  return heldRefusals.get(response) ?? 0;
}

/**
 * A 302 to a redirect target, sent as the absolute URL it resolves to, and only if that is safe (the one place
 * every API redirect passes through); the endpoint adds the cookies the operation set.
 */
export function found(target: string): Response {
  return new Response(null, { status: 302, headers: { Location: withQuery(target, {}) } });
}

/** Distinct query strings an endpoint keeps the parse of (ADR 045). */
const MAX_PARSED_QUERIES = 256;

export function endpoint<Body extends z.ZodType = z.ZodUnknown, Query extends z.ZodType = z.ZodUnknown, Result extends Promise<unknown> = Promise<unknown>>(
  definition: EndpointDefinition<Body, Query, Result>,
): { loader: EndpointHandler<Body, Query, Result>; action: EndpointHandler<Body, Query, Result> } {
  /**
   * What each query string parsed to, kept once it parsed and passed the callback checks: most GETs carry none
   * or one a client sends again and again (Better Auth's `?disableCookieCache=true`), and reading the
   * parameters, zod and the checks cost ~5 µs a request, enough to take get-session off its fast path (issue 28,
   * ADR 045). What a query parses to depends on nothing but its text and the configuration. Bounded: emptied
   * when full, so a client inventing queries costs itself the parse and nobody memory.
   */
  const parsedQueries = new Map<string, object>();
  const parseQuery = (search: string, searchParams?: URLSearchParams) => {
    const known = parsedQueries.get(search);
    if (known) return { ...known };
    const rawQuery = Object.fromEntries(searchParams ?? new URLSearchParams(search));
    const parsed = definition.query ? (parseWith(definition.query, rawQuery, "query") as object) : rawQuery;
    assertSafeCallbacks(parsed);
    if (parsedQueries.size >= MAX_PARSED_QUERIES) parsedQueries.clear();
    parsedQueries.set(search, Object.freeze({ ...parsed }));
    return parsed;
  };

  const { fromMemory } = definition;
  if (fromMemory && definition.method !== "GET") throw new TypeError("only a GET endpoint may answer from memory");
  /**
   * The dispatch's question, answered under the endpoint's own rules, or left to `handle`: never on a path with
   * a rate limit (every request there is counted) or one an impersonator is kept from; the same query parse
   * (a query `handle` would refuse is its to refuse). Anything thrown goes the same way, so `handle` meets it
   * and answers and logs it as it answers everything.
   */
  const answerFromMemory: MemoryAnswer | undefined =
    fromMemory &&
    ((pathname, search, cookieHeader, note) => {
      try {
        const path = rateLimitPath(pathname);
        if (ruleFor(path) || isKeptFromImpersonators(path)) return null;
        const answer = fromMemory({ query: parseQuery(search) as z.infer<Query>, cookieHeader });
        if (answer === null) return null;
        const userId = (answer as { user?: { id?: unknown } }).user?.id;
        if (typeof userId === "string") noteUser(note, userId);
        return jsonText(answer);
      } catch {
        return null;
      }
    });

  async function handle({ request, context, params }: LoaderFunctionArgs | ActionFunctionArgs): Promise<Response> {
    let ctx: RequestContext | undefined;
    try {
      if (definition.available && !definition.available()) throw new AuthError("NOT_FOUND");
      // HEAD is GET without a body (Node drops the body); everything else must match the route's method.
      const method = request.method === "HEAD" ? "GET" : request.method;
      if (method !== definition.method) throw new AuthError("METHOD_NOT_ALLOWED", { headers: { Allow: definition.method } });
      if (request.method === "HEAD" && definition.changesState) {
        return new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });
      }
      const url = new URL(request.url);
      const path = rateLimitPath(url.pathname);
      ctx = await requestContext(request, context, path);
      // An admin acting as the user cannot change how the account signs in, nor delete it (ADR 049).
      await refuseImpersonatorAt(ctx, path);
      const query = parseQuery(url.search, url.searchParams);
      const rawBody = definition.method === "POST" ? await readBody(request, context) : undefined;
      // Proof of work's form field (ADR 060), wherever the route's schema would drop it.
      if (rawBody && typeof rawBody === "object" && typeof (rawBody as { altcha?: unknown }).altcha === "string") ctx.captchaResponse = (rawBody as { altcha: string }).altcha;
      const body = definition.body ? parseWith(definition.body, rawBody, "body") : rawBody;
      assertSafeCallbacks(body);
      const result = await definition.handler({ body: body as z.infer<Body>, query: query as z.infer<Query>, ctx, params });
      if (result instanceof Response) {
        ctx.responseHeaders.forEach((value, name) => result.headers.append(name, value));
        return result;
      }
      return json(result, { headers: ctx.responseHeaders });
    } catch (error) {
      const refusal = definition.landingPage && request.method === "GET" && wantsPage(request) ? knownError(error) : null;
      if (refusal && refusal.status < 500) {
        const landing = found(withQuery(definition.landingPage!, { error: refusal.code.toLowerCase() }));
        ctx?.responseHeaders.forEach((value, name) => landing.headers.append(name, value));
        return landing;
      }
      await holdRefusal(error);
      return errorResponse(await inRequestLanguage(error, request, context), ctx?.responseHeaders, context);
    }
  }
  if (!answerFromMemory && !definition.landingPage) return { loader: handle, action: handle };
  const marks = { ...(answerFromMemory ? { fromMemory: answerFromMemory } : {}), ...(definition.landingPage ? { refusesWithPages: true } : {}) };
  return { loader: Object.assign((args: LoaderFunctionArgs) => handle(args), marks), action: handle };
}

/** Shared body fields (`optionalUrl` is defined with the domain's field rules, which social's bodies use too). */
export { optionalUrl } from "~/auth/schemas";
export const queryFlag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1" || value === "");
