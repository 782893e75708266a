// Trusted origins (spec §5): requests that carry cookies must come from one, and every URL we may redirect a
// browser to must be relative to this site or on one. Patterns may use "*" for one or more host characters,
// e.g. https://*.example.com.
import { AuthError, type ErrorName } from "~/auth/errors";
import { env } from "~/env.server";

function patternToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/.:][^/:]*");
  return new RegExp(`^${escaped}$`, "i");
}

const trustedPatterns = [env.baseOrigin, ...env.TRUSTED_ORIGINS.split(",")]
  .map((origin) => origin.trim().replace(/\/+$/, ""))
  .filter(Boolean)
  .map(patternToRegExp);

export function isTrustedOrigin(origin: string): boolean {
  return trustedPatterns.some((pattern) => pattern.test(origin));
}

/** A same-site path: "/x", never "//host" or "/\host", which browsers treat as another site. */
export function isRelativePath(value: string): boolean {
  return /^\/(?![/\\])/.test(value) && !/[\u0000-\u001f]/.test(value);
}

/** True for a same-site path or an absolute http(s) URL on a trusted origin. */
export function isSafeRedirectTarget(value: string): boolean {
  if (isRelativePath(value)) return true;
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && isTrustedOrigin(url.origin);
  } catch {
    return false;
  }
}

/** Cookie-carrying POSTs must name a trusted Origin (or Referer): the browser's guard against CSRF. */
export function assertTrustedRequestOrigin(request: Request): void {
  if (!request.headers.has("cookie")) return;
  const origin = request.headers.get("origin") ?? request.headers.get("referer");
  let parsed: string | null = null;
  try {
    parsed = origin && origin !== "null" ? new URL(origin).origin : null;
  } catch {
    parsed = null;
  }
  if (!parsed) throw new AuthError("MISSING_OR_NULL_ORIGIN");
  if (!isTrustedOrigin(parsed)) throw new AuthError("INVALID_ORIGIN");
}

const CALLBACK_FIELDS: Record<string, ErrorName> = {
  callbackURL: "INVALID_CALLBACKURL",
  redirectTo: "INVALID_REDIRECTURL",
  errorCallbackURL: "INVALID_ERRORCALLBACKURL",
  newUserCallbackURL: "INVALID_NEWUSERCALLBACKURL",
};

/** Refuses a body or query that names a redirect target outside the trusted origins. */
export function assertSafeCallbacks(input: unknown): void {
  if (!input || typeof input !== "object") return;
  for (const [field, error] of Object.entries(CALLBACK_FIELDS)) {
    const value = (input as Record<string, unknown>)[field];
    if (typeof value === "string" && value !== "" && !isSafeRedirectTarget(value)) throw new AuthError(error);
  }
}

/** For page redirects after sign-in: only same-site paths, anything else becomes `fallback`. */
export function safeRedirectPath(value: FormDataEntryValue | string | null | undefined, fallback = "/account"): string {
  return typeof value === "string" && isRelativePath(value) ? value : fallback;
}
