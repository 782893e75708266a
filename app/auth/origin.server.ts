// Trusted origins (spec §5): requests that carry cookies must come from one, and every URL we may redirect a
// browser to must be relative to this site or on one (docs/decisions/007-origin-and-redirect-checks.md).
import { AuthError, type ErrorName } from "~/auth/errors";
import { env } from "~/env.server";

/**
 * A pattern with a scheme ("https://*.example.com") is matched against a whole origin; one without
 * ("*.example.com") against the host alone, on any scheme. "*" stands for one or more host characters.
 */
interface TrustedPattern {
  regExp: RegExp;
  matchesHostOnly: boolean;
}

function compilePattern(pattern: string): TrustedPattern {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/.:][^/:]*");
  return { regExp: new RegExp(`^${escaped}$`, "i"), matchesHostOnly: !pattern.includes("://") };
}

const trustedPatterns = [env.baseOrigin, ...env.TRUSTED_ORIGINS.split(",")]
  .map((origin) => origin.trim().replace(/\/+$/, ""))
  .filter(Boolean)
  .map(compilePattern);

export function isTrustedOrigin(origin: string): boolean {
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false;
  }
  return trustedPatterns.some((pattern) => pattern.regExp.test(pattern.matchesHostOnly ? host : origin));
}

/**
 * A same-site path: "/x", never "//host" or "/\host", which browsers treat as another site, nor their
 * percent-encoded forms ("/%2F…", "/%5C…"), which a decoding redirect further along would turn into one.
 */
export function isRelativePath(value: string): boolean {
  return /^\/(?![/\\]|%2f|%5c)/i.test(value) && !/[\u0000-\u001f\\]/.test(value);
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

/**
 * The browser's guard against cross-site request forgery, for every request that can change something:
 * - one that carries cookies must name a trusted Origin (or Referer);
 * - one that names an Origin must name a trusted one even without cookies, so another site cannot sign a
 *   visitor into an account of its choosing (login CSRF) with a hidden form.
 * Requests with neither cookies nor Origin (servers, command-line clients) pass.
 */
export function assertTrustedRequestOrigin(request: Request): void {
  const hasCookies = request.headers.has("cookie");
  const named = request.headers.get("origin") ?? request.headers.get("referer");
  if (!hasCookies && named === null) return;
  let origin: string | null = null;
  try {
    origin = named && named !== "null" ? new URL(named).origin : null;
  } catch {
    origin = null;
  }
  if (!origin) throw new AuthError("MISSING_OR_NULL_ORIGIN");
  if (!isTrustedOrigin(origin)) throw new AuthError("INVALID_ORIGIN");
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
