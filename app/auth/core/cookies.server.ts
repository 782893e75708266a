// Every cookie the auth layer sets: one name prefix (`__Secure-` on https), HttpOnly, SameSite=Lax, and values
// HMAC-signed for one purpose, so a value made for one cookie is worthless in another. Sessions, the browser
// binding of verification links, and the capabilities' short-lived cookies (two-factor attempts, passkey
// challenges, OAuth state) all go through here.
import { parse, serialize, type CookieSerializeOptions } from "cookie";
import { sign, unsign } from "~/auth/core/crypto.server";
import type { RequestContext } from "~/auth/request-context.server";
import { env } from "~/env.server";

const prefix = env.secureCookies ? "__Secure-latchkey" : "latchkey";
const baseCookie: CookieSerializeOptions = { httpOnly: true, sameSite: "lax", path: "/", secure: env.secureCookies };

/** The full cookie name for a short name: "session_token" → "latchkey.session_token". */
export const cookieName = (name: string) => `${prefix}.${name}`;

/** Marks the browser that signed up, so only it is signed in by the verification link (see email-verification). */
export const SIGN_UP_BROWSER_COOKIE = cookieName("verification_browser");
/** What SIGN_UP_BROWSER_COOKIE's value (the user id) is signed for. */
export const SIGN_UP_BROWSER_PURPOSE = "verification_browser";

/**
 * Parsed cookies by the Cookie header's text: a signed-in browser sends the same header request after request,
 * so its parse is made once and shared (frozen: nothing may change it). Bounded like every cache here: emptied
 * when full, and a header longer than any this app sets is parsed each time rather than kept.
 */
const parsedHeaders = new Map<string, Readonly<Record<string, string | undefined>>>();
const PARSED_HEADERS_LIMIT = 10_000;
const KEPT_HEADER_LENGTH = 2_048;
const NO_COOKIES: Readonly<Record<string, string | undefined>> = Object.freeze({});

export function requestCookies(request: Request): Readonly<Record<string, string | undefined>> {
  return cookiesOfHeader(request.headers.get("cookie"));
}

/** `requestCookies` from the Cookie header's text, for a caller that has no Fetch Request (ADR 054). */
export function cookiesOfHeader(header: string | null | undefined): Readonly<Record<string, string | undefined>> {
  if (!header) return NO_COOKIES;
  let cookies = parsedHeaders.get(header);
  if (!cookies) {
    cookies = Object.freeze(parse(header));
    if (header.length <= KEPT_HEADER_LENGTH) {
      if (parsedHeaders.size >= PARSED_HEADERS_LIMIT) parsedHeaders.clear();
      parsedHeaders.set(header, cookies);
    }
  }
  return cookies;
}

/** Sets a cookie (full name); without maxAge it is a browser-session cookie. */
export function setCookie(ctx: RequestContext, name: string, value: string, maxAgeSeconds?: number): void {
  ctx.responseHeaders.append("Set-Cookie", serialize(name, value, { ...baseCookie, maxAge: maxAgeSeconds }));
}

/** A cookie's clearing header never changes; sign-out sends four of them, so each is serialized once. */
const clearingHeaders = new Map<string, string>();

export function clearCookie(ctx: RequestContext, name: string): void {
  let header = clearingHeaders.get(name);
  if (header === undefined) {
    header = serialize(name, "", { ...baseCookie, maxAge: 0 });
    clearingHeaders.set(name, header);
  }
  ctx.responseHeaders.append("Set-Cookie", header);
}

export function setSignedCookie(ctx: RequestContext, name: string, value: string, purpose: string, maxAgeSeconds?: number): void {
  setCookie(ctx, name, sign(value, purpose), maxAgeSeconds);
}

/** The cookie's value if present and signed by this server for this purpose, else null. */
export function readSignedCookie(request: Request, name: string, purpose: string): string | null {
  const signed = requestCookies(request)[name];
  return signed ? unsign(signed, purpose) : null;
}

/** Whether this request comes from the browser that signed up as `userId` (or proved its password unverified). */
export function isSignUpBrowserOf(request: Request, userId: string): boolean {
  return readSignedCookie(request, SIGN_UP_BROWSER_COOKIE, SIGN_UP_BROWSER_PURPOSE) === userId;
}
