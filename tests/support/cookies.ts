// Set-Cookie parsing and cookie-jar helpers for API tests.
import { ApiClient, type ApiResponse } from "./client";

export interface SetCookie {
  name: string;
  value: string;
  /** Attribute names lower-cased; flag attributes map to true. */
  attributes: Record<string, string | true>;
  raw: string;
}

export function parseSetCookie(line: string): SetCookie {
  const [pair, ...rest] = line.split(";");
  const eq = pair.indexOf("=");
  const attributes: Record<string, string | true> = {};
  for (const part of rest) {
    const trimmed = part.trim();
    if (!trimmed) continue;
    const i = trimmed.indexOf("=");
    if (i === -1) attributes[trimmed.toLowerCase()] = true;
    else attributes[trimmed.slice(0, i).trim().toLowerCase()] = trimmed.slice(i + 1).trim();
  }
  return { name: pair.slice(0, eq).trim(), value: pair.slice(eq + 1).trim(), attributes, raw: line };
}

/** The Set-Cookie line a response sent for `name` (the last one if several), or undefined. */
export function setCookie(response: ApiResponse, name: string): SetCookie | undefined {
  return response.setCookies.map(parseSetCookie).filter((c) => c.name === name).at(-1);
}

/** True when the response expires the cookie (empty value or Max-Age=0). */
export function clears(response: ApiResponse, name: string): boolean {
  const cookie = setCookie(response, name);
  return Boolean(cookie && (cookie.value === "" || cookie.attributes["max-age"] === "0"));
}

/** A second client holding a copy of `client`'s cookies (a stolen or stale cookie jar). */
export function cloneClient(client: ApiClient, baseUrl = client.baseUrl, origin: string | null = client.origin): ApiClient {
  const copy = new ApiClient(baseUrl, origin);
  for (const [name, value] of client.cookies) copy.cookies.set(name, value);
  return copy;
}

export const COOKIE = {
  sessionToken: "latchkey.session_token",
  sessionData: "latchkey.session_data",
  dontRemember: "latchkey.dont_remember",
  /** The sign-up browser's binding (ADR 011, 028). */
  verificationBrowser: "latchkey.verification_browser",
} as const;

export const SECURE_COOKIE = {
  sessionToken: "__Secure-latchkey.session_token",
  sessionData: "__Secure-latchkey.session_data",
  dontRemember: "__Secure-latchkey.dont_remember",
} as const;
