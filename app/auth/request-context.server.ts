// What every auth operation needs to know about the request it serves, and the response headers (cookies) it
// produces. API endpoints and page actions both build one with `requestContext`, so the origin check and the
// rate limit are applied the same way whichever door a request comes through.
import type { AppLoadContext } from "@remix-run/node";
import { assertTrustedRequestOrigin } from "~/auth/origin.server";
import { enforceRateLimit } from "~/auth/rate-limit/limits.server";

export interface RequestContext {
  request: Request;
  clientIp: string;
  userAgent: string | null;
  /** Headers the response must carry (Set-Cookie, Retry-After); merged in by the route. */
  responseHeaders: Headers;
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
  };
  if (request.method !== "GET" && request.method !== "HEAD") assertTrustedRequestOrigin(request);
  if (rateLimitPath) await enforceRateLimit(ctx.clientIp, rateLimitPath);
  return ctx;
}
