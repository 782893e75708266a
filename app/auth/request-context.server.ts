// What every auth operation needs to know about the request it serves, and the response headers (cookies) it
// produces. API endpoints and page actions both build one with `requestContext`, so the origin check and the
// rate limit are applied the same way whichever door a request comes through.
import type { AppLoadContext } from "@remix-run/node";
import { assertTrustedRequestOrigin } from "~/auth/origin.server";
import { noteRateLimitRefusal } from "~/auth/proof-of-work/burst.server";
import { enforceRateLimit } from "~/auth/rate-limit/limits.server";
import type { RequestNote } from "~/observability/request-note.server";

export interface RequestContext {
  request: Request;
  clientIp: string;
  userAgent: string | null;
  /** Headers the response must carry (Set-Cookie, Retry-After); merged in by the route. */
  responseHeaders: Headers;
  /** The request's log line (its id, who is signed in: ADR 062); absent outside the server. */
  note?: RequestNote;
  /** A proof-of-work solution sent as the form field `altcha` (ADR 060), set where the body is read. */
  captchaResponse?: string;
}

/**
 * @param rateLimitPath the API path whose rate-limit bucket this request counts against
 *   (a page action for sign-in shares "/sign-in/email" with the JSON endpoint).
 */
export async function requestContext(
  request: Request,
  loadContext: AppLoadContext | undefined,
  rateLimitPath: string | null,
): Promise<RequestContext> {
  const ctx: RequestContext = {
    request,
    clientIp: loadContext?.clientIp ?? "unknown",
    userAgent: request.headers.get("user-agent"),
    responseHeaders: new Headers(),
    note: loadContext?.requestNote,
  };
  if (request.method !== "GET" && request.method !== "HEAD") assertTrustedRequestOrigin(request);
  if (rateLimitPath) await enforceRateLimitNoting(ctx.clientIp, rateLimitPath);
  return ctx;
}

/** The per-address limit; a refusal on sign-in, sign-up or reset is also evidence of a burst (ADR 060). */
export async function enforceRateLimitNoting(clientIp: string, path: string): Promise<void> {
  try {
    await enforceRateLimit(clientIp, path);
  } catch (error) {
    noteRateLimitRefusal(clientIp, path);
    throw error;
  }
}
