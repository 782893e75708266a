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
 * Paths a later hop could read as another host: "//host", "/\\host", and their percent-encoded spellings, which
 * a decoding redirect further along would turn into one.
 */
const AMBIGUOUS_PATH = /^\/(?:[/\\]|%2f|%5c)/i;

/**
 * Judges a redirect target the way a browser will read it: resolved against BASE_URL first (so "/..//host",
 * "/.//host", "/%2e%2e//host" and "/\\host" are seen for what they become), then the result must be http(s), carry
 * no credentials, have an unambiguous path and sit on a trusted origin (with `sameOrigin`, on BASE_URL's own).
 * Only a path starting with "/" or an absolute http(s) URL is considered at all. Returns the resolved URL, which
 * is what the server must send on (docs/decisions/009-redirect-targets.md), or null.
 */
export function resolveRedirectTarget(value: string, options: { sameOrigin?: boolean } = {}): URL | null {
  // Backslashes are read as slashes by browsers but not by every parser along the way: never ambiguous, refused.
  if (value.length > 2048 || /[\u0000-\u001f\u007f\\]/.test(value)) return null;
  if (!value.startsWith("/") && !/^https?:\/\//i.test(value)) return null;
  let url: URL;
  try {
    url = new URL(value, env.BASE_URL);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (url.username !== "" || url.password !== "" || AMBIGUOUS_PATH.test(url.pathname)) return null;
  const trusted = options.sameOrigin ? url.origin === env.baseOrigin : isTrustedOrigin(url.origin);
  return trusted ? url : null;
}

export function isSafeRedirectTarget(value: string): boolean {
  return resolveRedirectTarget(value) !== null;
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

/**
 * For page redirects (after sign-in, sign-up…): a target on this site, as the absolute URL it resolves to;
 * anything else becomes `fallback`.
 */
export function safeRedirectTarget(value: FormDataEntryValue | string | null | undefined, fallback = "/account"): string {
  const url = typeof value === "string" && value !== "" ? resolveRedirectTarget(value, { sameOrigin: true }) : null;
  return (url ?? new URL(fallback, env.BASE_URL)).href;
}
