// Absolute links for e-mails, always built from BASE_URL (never from the request's Host header, which an
// attacker could choose).
import { env } from "~/env.server";

export function absoluteUrl(pathAndQuery: string): string {
  return new URL(pathAndQuery, env.BASE_URL).toString();
}

/** Appends query values to a relative or absolute URL, keeping what it already has. */
export function withQuery(target: string, values: Record<string, string>): string {
  const url = new URL(target, env.BASE_URL);
  for (const [key, value] of Object.entries(values)) url.searchParams.set(key, value);
  return url.origin === env.baseOrigin && !/^https?:/i.test(target) ? url.pathname + url.search + url.hash : url.toString();
}

/** Pages of our own that e-mailed links return to when the caller named none. */
export const PAGES = {
  emailVerified: "/email-verified",
  resetPassword: "/reset-password",
  accountDeleted: "/account-deleted",
} as const;
