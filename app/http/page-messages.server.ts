// What the pages say when a domain error comes back: words for people, with the number or the way on that the
// specification's terse message leaves out. The JSON API keeps the catalogue's messages unchanged; only page
// actions (the page pipeline, page-action.server.ts) pass errors through `wordsFor`. A code not listed here is shown
// with its catalogue message.
import { EMAIL_OTP_SECONDS } from "~/auth/email-otp/constants";
import { TWO_FACTOR_OTP_SECONDS } from "~/auth/two-factor/constants";
import { AuthError } from "~/auth/errors";
import { REFUSAL_WORDS } from "~/http/refusal-words";
import { passwordBounds } from "~/auth/account/password.server";
import { endedBy, type Ended } from "~/auth/account/claim.server";
import { emailVerificationEnabled } from "~/auth/sign-in/verification-link.server";
import type { RequestContext } from "~/auth/request-context.server";
import { PROVIDER_NAMES, type SocialProviderId } from "~/auth/social/provider-ids";
import { enabledProviders } from "~/auth/social/providers/registry.server";
import type { FlashLink } from "~/http/flash.server";
import { USERNAME_WORDS } from "~/auth/username/schemas";

const wordsOf = <K extends string>(words: Record<K, string>) =>
  Object.fromEntries(Object.entries(words).map(([code, text]) => [code, () => text])) as Record<K, () => string>;

export const PAGE_MESSAGES = {
  INVALID_EMAIL_OR_PASSWORD: () => "That email and password don't match. Check both and try again.",
  ...wordsOf(USERNAME_WORDS),
  USER_ALREADY_EXISTS: () => "An account with this email already exists. Sign in or reset your password.",
  INVALID_PASSWORD: () => "That isn't your current password.",
  PASSWORD_TOO_SHORT: () => `Use at least ${passwordBounds().min} characters.`,
  PASSWORD_TOO_LONG: () => `Use at most ${passwordBounds().max} characters.`,
  // Issue 39 §2: a breached or common password. The way on: something longer and only yours.
  PASSWORD_COMPROMISED: () =>
    "This password is in lists of leaked or common passwords that attackers try first. Choose a different one: a few unrelated words make a strong, memorable password.",
  INVALID_EMAIL: () => "Enter an email address like ada@example.com.",
  EMAIL_NOT_VERIFIED: () => "Your email address isn't verified yet. We sent you a new link: follow it, then sign in.",
  EMAIL_IS_THE_SAME: () => "That is already your email address.",
  EMAIL_MISMATCH: () => "That isn't your email address. Type it exactly as shown to confirm.",
  ACCOUNT_EMAIL_MISMATCH: () => "That isn't this account's email address. Type it exactly as shown to confirm.",
  COULDNT_UPDATE_YOUR_EMAIL: () => "That address can't be used for this account. Choose another one.",
  USER_NOT_FOUND: () => "This account no longer exists.",
  CREDENTIAL_ACCOUNT_NOT_FOUND: () => "This account has no password yet.",
  USER_ALREADY_HAS_A_PASSWORD: () => "This account already has a password.",
  SESSION_EXPIRED_REAUTHENTICATE_TO_PERFORM_THIS_ACTION: () => "For your safety, confirm it's you before you do this.",
  SESSION_IS_NOT_FRESH: () => REFUSAL_WORDS.SESSION_IS_NOT_FRESH,
  INVALID_TOKEN: () => "This link is invalid or was already used.",
  TOKEN_EXPIRED: () => "This link has expired. Ask for a new one.",
  FAILED_TO_SEND_EMAIL: () => "We couldn't send the email just now. Try again in a minute.",
  UNAUTHORIZED: () => REFUSAL_WORDS.UNAUTHORIZED,
  YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT: () => "This is your only way to sign in. Set a password or link another account first.",
  ACCOUNT_NOT_FOUND: () => "That account is not linked.",
  // A passkey renamed or deleted from the account page after it was deleted elsewhere (another tab, the API).
  PASSKEY_NOT_FOUND: () => REFUSAL_WORDS.PASSKEY_NOT_FOUND,
  // E-mailed codes (sign-in by code): the way on is the page's "Send a new code".
  INVALID_OTP: () => "That code is not right. Check the email and try again, or send a new code.",
  OTP_EXPIRED: () => `That code has expired: codes work for ${EMAIL_OTP_SECONDS / 60} minutes. Send a new code.`,
  // The e-mailed second factor after a first factor that rests on the inbox, or for a user who did not choose it.
  OTP_NOT_ENABLED: () => "A code by email can't finish this sign-in. Use your authenticator app or a backup code.",
  // A two-factor sign-in that cannot go on: the page sends the person back to the password step with this.
  INVALID_TWO_FACTOR_COOKIE: () => "This sign-in ended after too many wrong codes, or took too long. Sign in again with your password.",
  TOO_MANY_ATTEMPTS: () => "That code was entered wrongly too many times and no longer works. Send a new code.",
  BANNED_USER: () => REFUSAL_WORDS.BANNED_USER,
  NOT_ALLOWED_WHILE_IMPERSONATING: () =>
    "You are acting as this person: their profile, password, email address, passkeys, two-factor settings and linked accounts can't be changed, the account can't be deleted or signed out everywhere, and no application can be let in as them, until you stop.",
  YOU_CANNOT_BAN_YOURSELF: () => "You can't ban your own account.",
  YOU_CANNOT_REMOVE_YOURSELF: () => "You can't delete your own account from here.",
  YOU_CANNOT_DEMOTE_YOURSELF: () => "You can't take away your own admin role.",
  YOU_CANNOT_IMPERSONATE_ADMINS: () => "You can't act as another admin.",
  FAILED_TO_FIND_ADMIN_SESSION: () => "You stopped acting as this person, but your own session had ended. Sign in again.",
  TOO_MANY_REQUESTS: (error: AuthError) => {
    const seconds = Number(error.headers["Retry-After"]);
    return Number.isFinite(seconds) && seconds > 0
      ? `Too many attempts. Try again in ${seconds} ${seconds === 1 ? "second" : "seconds"}.`
      : "Too many attempts. Try again in a minute.";
  },
  ACCOUNT_TEMPORARILY_LOCKED: (error: AuthError) => {
    const seconds = Number(error.headers["Retry-After"]);
    const minutes = Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds / 60) : null;
    const when = minutes === null ? "later" : `in ${minutes} ${minutes === 1 ? "minute" : "minutes"}`;
    // A browser the account knows has a bucket of its own (ADR 057): its lock is about this device alone.
    if (error.reason === "device") {
      return `There have been too many failed password attempts from this device. Try again ${when}, or sign in another way: with a passkey or with a code emailed to you.`;
    }
    return `There have been too many failed password attempts for this account from new devices. Try again ${when}, or sign in another way: with a passkey, with a code emailed to you, or from a device you have used to sign in before.`;
  },
  // Issue 39 §5: proof of work under a burst; the check itself and its words for people without JavaScript are
  // shown beside the form (app/components/proof-of-work.tsx).
  MISSING_RESPONSE: () => "Many attempts have failed here in the last few minutes, so this form needs a short check first: see below the form.",
  VERIFICATION_FAILED: () => "The check did not go through or has expired. Let it run again below the form, then send the form again.",
} satisfies Record<string, (error: AuthError) => string>;

/**
 * Why a two-factor code was refused, in words (AuthError.reason): an e-mailed code that expired or was used up
 * is not a typing mistake, and the way on is "Send a new code".
 */
export function twoFactorCodeWords(reason: string | undefined): string {
  switch (reason) {
    case "expired":
      return `That code has expired: codes work for ${TWO_FACTOR_OTP_SECONDS / 60} minutes. Send a new code.`;
    case "exhausted":
      return PAGE_MESSAGES.TOO_MANY_ATTEMPTS();
    case "missing":
      return "No code is waiting for this sign-in. Send a new code.";
    default:
      return "That code is not right. Check it and try again.";
  }
}

export function wordsFor(error: AuthError): string {
  const words = (PAGE_MESSAGES as Record<string, ((error: AuthError) => string) | undefined>)[error.code];
  return words ? words(error) : error.message;
}

/**
 * Why any mailed link was refused before it was looked at (the endpoint's `landingPage`): too many requests from
 * the reader's network, or a callbackURL this site no longer trusts (its trusted origins changed since the mail).
 */
const LINK_REFUSALS: Record<string, string> = {
  too_many_requests: "Too many requests came from your network just now, so the link was not opened. Wait a minute, then open it again.",
  invalid_callbackurl: "The link leads on to an address this site no longer trusts, so it was not opened. Ask for a new link.",
};

/** The words for a mailed link's refusal before its own check, or null for any other `?error=`. */
export function linkRefusal(error: string | null): string | null {
  return error && Object.hasOwn(LINK_REFUSALS, error) ? LINK_REFUSALS[error] : null;
}

/** Why an e-mailed verification link failed, from the `?error=` its redirect brings back (spec §8's values). */
const VERIFY_LINK_PROBLEMS: Record<string, string> = {
  ...LINK_REFUSALS,
  token_expired: "The link has expired. Sign in and ask for a new verification email.",
  invalid_token:
    "The link is incomplete, invalid or was already used. If your email program split the link over two lines, copy all of it into the address bar; otherwise sign in and ask for a new verification email.",
  user_not_found: "The account this link was sent for no longer uses that address.",
  unauthorized: "You are signed in as somebody else. Sign out and open the link again.",
};

/** The words for a verification link's `?error=`; an unknown value reads as an invalid link. */
export function verifyLinkProblem(error: string | null): string | null {
  if (!error) return null;
  return Object.hasOwn(VERIFY_LINK_PROBLEMS, error) ? VERIFY_LINK_PROBLEMS[error] : VERIFY_LINK_PROBLEMS.invalid_token;
}

/**
 * Why an e-mailed account-deletion link did not delete the account, from the `?error=` (the API error code in
 * lower case) a browser is sent to /account-deleted with; an unknown value reads as an invalid link.
 */
const DELETE_LINK_PROBLEMS: Record<string, string> = {
  ...LINK_REFUSALS,
  invalid_token:
    "The link is incomplete, has expired, was already used or belongs to another account. If your email program split the link over two lines, copy all of it into the address bar; otherwise ask for a new link on the Delete account page.",
  unauthorized: "You are signed out. The link deletes an account only while you are signed in to it: sign in, then open the link again.",
  delete_user_is_disabled: "Deleting accounts is turned off on this site.",
  you_are_the_only_owner_of_an_organization_with_other_members:
    "You are the only owner of an organization that has other members. Make someone else an owner, or remove the members, then ask for a new link.",
};

/** The words for a deletion link's `?error=`; an unknown value reads as an invalid link. */
export function deleteLinkProblem(error: string | null): string | null {
  if (!error) return null;
  return Object.hasOwn(DELETE_LINK_PROBLEMS, error) ? DELETE_LINK_PROBLEMS[error] : DELETE_LINK_PROBLEMS.invalid_token;
}

/**
 * Why a social sign-in or link did not work, from the `?error=` a provider's return (or the "Continue with …"
 * form itself) brings back to the page; an unknown code reads as a general failure.
 */
const SOCIAL_SIGN_IN_PROBLEMS: Record<string, () => string> = {
  access_denied: () => "You cancelled the sign-in at the provider. Nothing was changed.",
  state_not_found: () => "That sign-in link was already used. Please start again.",
  state_mismatch: () => "That sign-in was started in another browser. Please start again here.",
  please_restart_the_process: () => "That sign-in took too long. Please start again.",
  no_code: () => "The provider did not finish the sign-in. Please try again.",
  invalid_code: () => "The provider did not accept the sign-in. Please try again.",
  invalid_token: () => "The provider's answer could not be verified. Please try again.",
  unable_to_get_user_info: () => "We could not read your profile from the provider. Please try again later.",
  // Only when the provider shared no address at all: one it does not vouch for starts an unverified account (issue 37).
  email_not_found: () =>
    "The provider did not share your email address, which an account needs. Allow the provider to share it and try again, or sign up with your email address; you can link the provider from your account afterwards.",
  // Also an address the provider does not vouch for when an account already has it: it joins no account (ADR 028).
  "account not linked": () =>
    "An account with this email address already exists. Sign in to that account another way, then link the provider from your account's Linked accounts page.",
  // With verification required: the account waits for its mailed link (a provider's new account too, issue 37).
  email_not_verified: () =>
    "Your email address isn't verified yet. We sent a message to the address the provider shared: follow its link, then continue with the provider again.",
  account_already_linked: () => "You already linked an account of this provider.",
  account_already_linked_to_different_user: () => "That provider account is already linked to another user.",
  "email_doesn't_match": () => "That provider account uses a different email address than yours.",
  unable_to_link_account: () => "We could not link that account. Please try again.",
  "unable to create user": () => "We could not create your account. Please try again.",
  oauth_provider_not_found: () => "That provider is not available.",
  // The redirect carries no Retry-After, so the catalogue's own words for a 429 without one.
  too_many_requests: () => PAGE_MESSAGES.TOO_MANY_REQUESTS(new AuthError("TOO_MANY_REQUESTS")),
};

/** The words for a social sign-in's `?error=`, or null when there is none. */
export function socialSignInProblem(code: string | null): string | null {
  if (!code) return null;
  const words = Object.hasOwn(SOCIAL_SIGN_IN_PROBLEMS, code) ? SOCIAL_SIGN_IN_PROBLEMS[code] : undefined;
  return words ? words() : "Signing in with the provider did not work. Please try again.";
}

/** What the sign-in and sign-up pages show of social sign-in: the enabled providers, and a refusal in words. */
export function socialSignInOptions(request: Request) {
  const error = new URL(request.url).searchParams.get("error");
  return { providers: enabledProviders(), error: socialSignInProblem(error) };
}

/** Where the person stands after a claim, which decides the way on the message offers. */
export type ClaimLanding = "signed-in" | "signed-out" | "new-password";

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const listed = (items: string[]) => (items.length <= 1 ? items.join("") : `${items.slice(0, -1).join(", ")} and ${items.at(-1)}`);
const providerName = (id: string) =>
  enabledProviders().find((provider) => provider.id === id)?.name ?? (Object.hasOwn(PROVIDER_NAMES, id) ? PROVIDER_NAMES[id as SocialProviderId] : id);

/**
 * What a claim (ADR 028) removed and why, in words for people, with the way on: set a password when signed in,
 * choose one by e-mail when signed out, nothing more after a reset (the new password is the way in). Null when
 * nothing worth saying ended.
 */
export function claimNotice(ended: Ended, landing: ClaimLanding): { text: string; link?: FlashLink } | null {
  const items: string[] = [];
  if (ended.password && landing !== "new-password") items.push("the password");
  if (ended.passkeys > 0) items.push(counted(ended.passkeys, "passkey", "passkeys"));
  if (ended.twoFactor) items.push("two-factor authentication");
  const providers = [...new Set(ended.linkedAccounts)].map(providerName);
  if (providers.length > 0) items.push(`the ${listed(providers)} ${providers.length === 1 ? "sign-in" : "sign-ins"}`);
  if (ended.sessions > 0) items.push(counted(ended.sessions, "signed-in session", "signed-in sessions"));
  if (ended.applications > 0) items.push(`the access of ${counted(ended.applications, "application", "applications")}`);
  if (items.length === 0) return null;
  const why =
    `This email address had not been confirmed before, and anyone can sign up with any address, so to protect you we ` +
    `removed what had been set up on the account until now: ${listed(items)}.`;
  switch (landing) {
    case "signed-in":
      return { text: `${why} Set a password to sign in with one.`, link: { href: "/account/security#set-password", text: "Set a password" } };
    case "signed-out":
      return { text: `${why} To sign in with a password, choose a new one.`, link: { href: "/forgot-password", text: "Choose a new password" } };
    default:
      return { text: why };
  }
}

/** What a verification or change-of-address link did: a change leaves the new address to verify itself. */
function emailLinkDone(user: { email: string; emailVerified: boolean }): string {
  if (user.emailVerified) return `Your email address ${user.email} is verified.`;
  return emailVerificationEnabled()
    ? `Change confirmed: your email address is now ${user.email}. We sent a verification link to it; follow that link to verify it.`
    : `Change confirmed: your email address is now ${user.email}.`;
}

/**
 * The one-time message after a mailed link did its work (the link itself, or its page's button), with what a
 * claim ended on the way (ADR 028): the browser is signed out then, so the way on is choosing a password.
 */
export function emailLinkOutcome(ctx: RequestContext, user: { email: string; emailVerified: boolean }): { text: string; link?: FlashLink } {
  const ended = endedBy(ctx);
  const claim = ended ? claimNotice(ended, "signed-out") : null;
  return claim ? { text: `${emailLinkDone(user)} ${claim.text}`, ...(claim.link ? { link: claim.link } : {}) } : { text: emailLinkDone(user) };
}
