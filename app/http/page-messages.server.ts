// What the pages say when a domain error comes back: words for people, with the number or the way on that the
// specification's terse message leaves out. The JSON API keeps the catalogue's messages unchanged; only page
// actions (`handleForm`, the account actions) pass errors through `wordsFor`. A code not listed here is shown
// with its catalogue message.
import type { AuthError } from "~/auth/errors";
import { passwordBounds } from "~/auth/password.server";

export const PAGE_MESSAGES = {
  INVALID_EMAIL_OR_PASSWORD: () => "That email and password don't match. Check both and try again.",
  USER_ALREADY_EXISTS: () => "An account with this email already exists. Sign in or reset your password.",
  INVALID_PASSWORD: () => "That isn't your current password.",
  PASSWORD_TOO_SHORT: () => `Use at least ${passwordBounds().min} characters.`,
  PASSWORD_TOO_LONG: () => `Use at most ${passwordBounds().max} characters.`,
  INVALID_EMAIL: () => "Enter an email address like ada@example.com.",
  EMAIL_NOT_VERIFIED: () => "Your email address isn't verified yet. We sent you a new link: follow it, then sign in.",
  EMAIL_IS_THE_SAME: () => "That is already your email address.",
  EMAIL_MISMATCH: () => "That isn't your email address. Type it exactly as shown to confirm.",
  COULDNT_UPDATE_YOUR_EMAIL: () => "That address can't be used for this account. Choose another one.",
  USER_NOT_FOUND: () => "This account no longer exists.",
  CREDENTIAL_ACCOUNT_NOT_FOUND: () => "This account has no password yet.",
  USER_ALREADY_HAS_A_PASSWORD: () => "This account already has a password.",
  SESSION_EXPIRED_REAUTHENTICATE_TO_PERFORM_THIS_ACTION: () => "For your safety, sign out and sign in again to do this.",
  SESSION_IS_NOT_FRESH: () => "For your safety, sign out and sign in again to do this.",
  INVALID_TOKEN: () => "This link is invalid or was already used.",
  TOKEN_EXPIRED: () => "This link has expired. Ask for a new one.",
  FAILED_TO_SEND_EMAIL: () => "We couldn't send the email just now. Try again in a minute.",
  UNAUTHORIZED: () => "You are signed out. Sign in and try again.",
  TOO_MANY_REQUESTS: (error: AuthError) => {
    const seconds = Number(error.headers["Retry-After"]);
    return Number.isFinite(seconds) && seconds > 0
      ? `Too many attempts. Try again in ${seconds} ${seconds === 1 ? "second" : "seconds"}.`
      : "Too many attempts. Try again in a minute.";
  },
} satisfies Record<string, (error: AuthError) => string>;

export function wordsFor(error: AuthError): string {
  const words = (PAGE_MESSAGES as Record<string, ((error: AuthError) => string) | undefined>)[error.code];
  return words ? words(error) : error.message;
}
