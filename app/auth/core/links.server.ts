// Absolute links for e-mails, always built from BASE_URL (never from the request's Host header, which an
// attacker could choose).
import { AuthError } from "~/auth/errors";
import { resolveRedirectTarget } from "~/auth/origin.server";
import { env } from "~/env.server";

export function absoluteUrl(pathAndQuery: string): string {
  return new URL(pathAndQuery, env.BASE_URL).toString();
}

/**
 * A redirect target with query values added, as the absolute URL to send. The target is judged again here (it
 * was judged when it came in, but it may have been stored in a link since): one that is not safe after
 * resolution is refused, so no caller can forget the check.
 */
export function withQuery(target: string, values: Record<string, string>): string {
  const url = resolveRedirectTarget(target);
  if (!url) throw new AuthError("INVALID_CALLBACKURL");
  for (const [key, value] of Object.entries(values)) url.searchParams.set(key, value);
  return url.href;
}

/** Pages of our own that e-mailed links return to when the caller named none. */
export const PAGES = {
  emailVerified: "/email-verified",
  /** A verification or change-of-address link opened outside the account's own browser asks here first. */
  confirmEmail: "/confirm-email",
  resetPassword: "/reset-password",
  accountDeleted: "/account-deleted",
  /** The security mails' links (ADR 048): what happened lately, and a remedy that needs no sign-in (issue 41). */
  activity: "/account/activity",
  forgotPassword: "/forgot-password",
  signIn: "/sign-in",
} as const;
