// Set-Cookie parsing and cookie-jar helpers for API tests.
import { expect } from "vitest";
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

/** When a request was sent and when its answer had arrived, on this machine's clock (its test servers' too). */
export interface Span {
  sentAt: number;
  receivedAt: number;
}

/** `request()`'s answer, with the span of this machine's clock it took. */
export async function timed<T>(request: () => Promise<T>): Promise<{ response: T } & Span> {
  const sentAt = Date.now();
  const response = await request();
  return { response, sentAt, receivedAt: Date.now() };
}

/** When the client's session ends (ms), as stored: read with disableRefresh, so the reading extends nothing. */
export async function sessionEndsAt(client: ApiClient): Promise<number> {
  const response = await client.get("/api/auth/get-session?disableRefresh=true");
  expect(response.body?.session, response.text).toBeTruthy();
  return new Date(response.body.session.expiresAt).getTime();
}

/**
 * A session started or extended by the request that took `span` ends `lifetimeSeconds` after the moment the server
 * did it, which lies within the span: exact bounds from the server's own clock, not a margin for a slow machine.
 */
export function expectLifetime(expiresAt: number, lifetimeSeconds: number, span: Span): void {
  expect(expiresAt, "the session's end").toBeGreaterThanOrEqual(span.sentAt + lifetimeSeconds * 1000);
  expect(expiresAt, "the session's end").toBeLessThanOrEqual(span.receivedAt + lifetimeSeconds * 1000);
}

/**
 * A session cookie's Max-Age is what the server computed when it wrote the cookie: round((expiresAt − its clock) /
 * 1000) (cookieMaxAge, app/auth/session/sessions.server.ts). That moment lies within the request's span, so the
 * Max-Age lies between what the span's two ends give: exact bounds, so the cookie ends when the session does. Never
 * a constant: the server computes the session's end before the transaction that stores it and writes the cookie
 * after, and on a loaded machine more than half a second between the two makes 604799 of 604800.
 */
export function expectMaxAgeEndingAt(cookie: SetCookie | undefined, expiresAt: number, span: Span): void {
  expect(cookie, "the session cookie").toBeDefined();
  const maxAge = Number(cookie!.attributes["max-age"]);
  expect(Number.isInteger(maxAge), cookie!.raw).toBe(true);
  expect(maxAge, cookie!.raw).toBeGreaterThanOrEqual(Math.round((expiresAt - span.receivedAt) / 1000));
  expect(maxAge, cookie!.raw).toBeLessThanOrEqual(Math.round((expiresAt - span.sentAt) / 1000));
}
