// Issue 44: the English the code writes for people — the shared zod schemas' field rules (run in the browser and on
// the server alike), the page refusals, the flashes — is found in the catalog's "said.*" messages, so each is shown
// in the reader's language with the same words whoever found the problem (app/i18n/said.ts).
import { describe, expect, test } from "vitest";
import type { z } from "zod";
import { AuthError, type ErrorName } from "~/auth/errors";
import {
  changePasswordSchema,
  deleteAccountSchema,
  forgotPasswordSchema,
  passwordLengthHint,
  resetPasswordFormSchema,
  setPasswordSchema,
  signInFormSchema,
  signUpFormSchema,
} from "~/auth/schemas";
import { USERNAME_HINT, USERNAME_WORDS } from "~/auth/username/schemas";
import { SHIPPED_CATALOGS } from "~/i18n/catalogs.server";
import { translator } from "~/i18n/format";
import { SHIPPED_LANGUAGES } from "~/i18n/languages";
import { saidIndex } from "~/i18n/said";
import { deleteLinkProblem, socialSignInProblem, linkRefusal, PAGE_MESSAGES, twoFactorCodeWords, verifyLinkProblem, wordsFor } from "~/http/page-messages.server";
import { otpCodeFormSchema } from "~/auth/email-otp/schemas";
import { secondFactorFormSchema, twoFactorPasswordFormSchema } from "~/auth/two-factor/schemas";
import { renamePasskeyForm } from "~/auth/passkey/schemas";
import { describeScopes } from "~/auth/oidc-provider/scopes";
import { SSO_START_WORDS, ssoReturnProblem } from "~/auth/sso/words";
import { reverifyCodeForm, reverifyPasswordForm } from "~/auth/step-up/schemas";
import { SERVER_TROUBLE } from "~/http/page-action.server";
import { accountNav, ADMIN_NAV_ENTRY } from "~/components/account-nav";
import { SIGNED_OUT_ELSEWHERE } from "~/http/page-session.server";
import { banFormSchema, deleteUserFormSchema, registerClientFormSchema, setRoleFormSchema, setUserPasswordFormSchema } from "~/auth/admin/schemas";

const source = Object.fromEntries(Object.entries(SHIPPED_CATALOGS.en).filter(([key]) => key.startsWith("said.")));
const index = saidIndex(source);
const bounds = { min: 8, max: 128 };

function messagesOf(schema: z.ZodType, value: unknown): string[] {
  const result = schema.safeParse(value);
  return result.success ? [] : result.error.issues.map((issue) => issue.message);
}

/** Every sentence the sign-in, sign-up and password pages can show from code. */
const written: string[] = [
  ...messagesOf(signInFormSchema, {}),
  ...messagesOf(signInFormSchema, { email: "", password: "" }),
  ...messagesOf(signInFormSchema, { email: "not an address@", password: "x" }),
  ...messagesOf(signInFormSchema, { email: "x".repeat(300), password: "x" }),
  ...messagesOf(signUpFormSchema(bounds), {}),
  ...messagesOf(signUpFormSchema(bounds), { name: "", email: "", password: "" }),
  ...messagesOf(signUpFormSchema(bounds), { name: "a\nb", email: "nope", password: "short", username: "x" }),
  ...messagesOf(signUpFormSchema(bounds), { name: "x".repeat(300), email: `${"x".repeat(300)}@example.com`, password: "x".repeat(200), username: "bad name!" }),
  ...messagesOf(forgotPasswordSchema, { email: "" }),
  ...messagesOf(resetPasswordFormSchema(bounds), { token: "t", newPassword: "" }),
  passwordLengthHint(bounds),
  USERNAME_HINT,
  ...Object.values(USERNAME_WORDS),
  ...(
    [
      "INVALID_EMAIL_OR_PASSWORD",
      "USER_ALREADY_EXISTS",
      "PASSWORD_TOO_SHORT",
      "PASSWORD_TOO_LONG",
      "PASSWORD_COMPROMISED",
      "INVALID_EMAIL",
      "EMAIL_NOT_VERIFIED",
      "INVALID_TOKEN",
      "TOKEN_EXPIRED",
      "FAILED_TO_SEND_EMAIL",
      "BANNED_USER",
      "TOO_MANY_REQUESTS",
      "MISSING_RESPONSE",
      "VERIFICATION_FAILED",
    ] as ErrorName[]
  ).map((code) => wordsFor(new AuthError(code))),
  PAGE_MESSAGES.TOO_MANY_REQUESTS(new AuthError("TOO_MANY_REQUESTS", { headers: { "Retry-After": "1" } })),
  PAGE_MESSAGES.TOO_MANY_REQUESTS(new AuthError("TOO_MANY_REQUESTS", { headers: { "Retry-After": "42" } })),
  PAGE_MESSAGES.ACCOUNT_TEMPORARILY_LOCKED(new AuthError("ACCOUNT_TEMPORARILY_LOCKED", { headers: { "Retry-After": "60" }, reason: "device" })),
  PAGE_MESSAGES.ACCOUNT_TEMPORARILY_LOCKED(new AuthError("ACCOUNT_TEMPORARILY_LOCKED", { headers: { "Retry-After": "600" } })),
  PAGE_MESSAGES.ACCOUNT_TEMPORARILY_LOCKED(new AuthError("ACCOUNT_TEMPORARILY_LOCKED", { reason: "device" })),
  PAGE_MESSAGES.ACCOUNT_TEMPORARILY_LOCKED(new AuthError("ACCOUNT_TEMPORARILY_LOCKED")),
  ...messagesOf(otpCodeFormSchema, { email: "a@example.com", otp: "" }),
  ...messagesOf(secondFactorFormSchema, { code: "" }),
  ...(["INVALID_OTP", "OTP_EXPIRED", "OTP_NOT_ENABLED", "INVALID_TWO_FACTOR_COOKIE", "TOO_MANY_ATTEMPTS"] as ErrorName[]).map((code) => wordsFor(new AuthError(code))),
  ...["expired", "exhausted", "missing", undefined].map(twoFactorCodeWords),
  ...["token_expired", "invalid_token", "user_not_found", "unauthorized"].map((error) => verifyLinkProblem(error)!),
  ...[...accountNav(["GitHub"]), ADMIN_NAV_ENTRY].flatMap((entry) => [entry.label, ...(entry.description ? [entry.description] : [])]),
  "Profile saved.",
  ...messagesOf(changePasswordSchema(bounds), {}),
  ...messagesOf(setPasswordSchema(bounds), { newPassword: "" }),
  ...(["INVALID_PASSWORD", "CREDENTIAL_ACCOUNT_NOT_FOUND", "USER_ALREADY_HAS_A_PASSWORD", "SESSION_IS_NOT_FRESH"] as ErrorName[]).map((code) => wordsFor(new AuthError(code))),
  "Password changed. Your other devices are signed out.",
  "Password changed.",
  ...describeScopes(["openid", "profile", "email", "offline_access"]),
  "Team Wiki can no longer use your account.",
  "Access revoked.",
  ...[
    "access_denied",
    "state_not_found",
    "state_mismatch",
    "please_restart_the_process",
    "no_code",
    "invalid_code",
    "invalid_token",
    "unable_to_get_user_info",
    "email_not_found",
    "account not linked",
    "email_not_verified",
    "account_already_linked",
    "account_already_linked_to_different_user",
    "email_doesn't_match",
    "unable_to_link_account",
    "unable to create user",
    "oauth_provider_not_found",
    "too_many_requests",
    "something new",
  ].map((code) => socialSignInProblem(code)!),
  ...(["YOU_CANT_UNLINK_YOUR_LAST_ACCOUNT", "ACCOUNT_NOT_FOUND"] as ErrorName[]).map((code) => wordsFor(new AuthError(code))),
  "GitHub is linked. You can sign in with it now.",
  "GitHub is unlinked.",
  "For your safety, linking an account needs you to confirm it's you, because you signed in a while ago. It takes a moment, and you will come back to this page.",
  "You are acting as this person, so accounts can't be linked or unlinked from here. Only they can do that, signed in themselves.",
  "Passkey renamed.",
  "Passkey deleted.",
  "Passkey added. You can now sign in with it.",
  ...messagesOf(renamePasskeyForm, { id: "x", name: "" }),
  wordsFor(new AuthError("PASSKEY_NOT_FOUND")),
  "For your safety, adding a passkey needs you to confirm it's you, because you signed in a while ago. It takes a moment, and you will come back to this page.",
  "You are acting as this person, so passkeys can't be added, renamed or deleted from here. Only they can do that, signed in themselves.",
  ...messagesOf(twoFactorPasswordFormSchema, {}),
  "That code is not right. Check the time on your phone and try again.",
  "Two-factor authentication is off.",
  "Signing in can now finish with a code by email.",
  "Signing in no longer offers a code by email.",
  "You are acting as this person, so two-factor settings can't be changed from here. Only they can do that, signed in themselves.",
  ...messagesOf(deleteAccountSchema, { confirmEmail: "" }),
  wordsFor(new AuthError("EMAIL_MISMATCH")),
  "We sent a confirmation link to ada@example.com. Your account is deleted when you follow it.",
  "For your safety, deleting your account needs you to confirm it's you, because you signed in a while ago. It takes a moment, and you will come back to this page.",
  "You are acting as this person, so the account can't be deleted from here. Only they can do that, signed in themselves.",
  ...["invalid_token", "unauthorized", "delete_user_is_disabled", "you_are_the_only_owner_of_an_organization_with_other_members", "anything"].map((error) => deleteLinkProblem(error)!),
  "Password set. You can now sign in with it.",
  "For your safety, setting a password needs you to confirm it's you, because you signed in a while ago. It takes a moment, and you will come back to this page.",
  "Signed out Chrome on Linux.",
  "That session had already ended.",
  "Signed out of all other devices. This one stays signed in.",
  "You are signed out.",
  ...["the profile and email address can't be changed", "the password can't be changed"].map(
    (kept) => `You are acting as this person, so ${kept} from here. Only they can do that, signed in themselves.`,
  ),
  linkRefusal("too_many_requests")!,
  linkRefusal("invalid_callbackurl")!,
  SERVER_TROUBLE,
  SIGNED_OUT_ELSEWHERE,
  // The activity page's "This wasn't me" and the admin console: flashes, refusals, field rules.
  `You are acting as this person, so "This wasn't me" can't be used from here. Only they can do that, signed in themselves.`,
  "You are signed out everywhere, on this device too. Sign in again with a way only you have.",
  "You are signed out everywhere, on this device too. We emailed ada@example.com a link to choose a new password: use it before you sign in again.",
  "The account is banned and signed out everywhere.",
  "The ban is lifted: the account can sign in again.",
  "The role is now admin.",
  "The role is now user.",
  "A password reset link is on its way to ada@example.com.",
  "The new password is set. Tell the owner through a channel you trust.",
  "That session is signed out.",
  "Every session of the account is signed out.",
  "The account ada@example.com is deleted.",
  "The application is removed: it can no longer sign anyone in.",
  "That application was already removed.",
  ...(["ACCOUNT_EMAIL_MISMATCH", "YOU_CANNOT_BAN_YOURSELF", "YOU_CANNOT_REMOVE_YOURSELF", "YOU_CANNOT_DEMOTE_YOURSELF", "YOU_CANNOT_IMPERSONATE_ADMINS"] as ErrorName[]).map(
    (code) => wordsFor(new AuthError(code)),
  ),
  // The registration's reasons as applications.server.ts words them (oidc-provider/clients.server.ts's checks).
  ...["is not an absolute URL", "has a fragment, which a redirect URI may not have", "must use https (plain http is for localhost only)", "is not a redirect URI", "may not carry a user name or password"].map(
    (reason) => `"http://wiki.example.com/callback" ${reason}.`,
  ),
  ...messagesOf(banFormSchema, { banReason: "x".repeat(600) }),
  ...messagesOf(setRoleFormSchema, {}),
  ...messagesOf(setUserPasswordFormSchema(bounds), {}),
  ...messagesOf(setUserPasswordFormSchema(bounds), { newPassword: "short" }),
  ...messagesOf(deleteUserFormSchema, {}),
  ...messagesOf(deleteUserFormSchema, { confirmEmail: " " }),
  ...messagesOf(registerClientFormSchema, {}),
  ...messagesOf(registerClientFormSchema, { name: "", redirectUris: "", kind: "x" }),
  ...messagesOf(registerClientFormSchema, {
    name: "x".repeat(200),
    redirectUris: `https://a.example/${"x".repeat(2100)}`,
    postLogoutRedirectUris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`).join("\n"),
    homepageUrl: "x".repeat(2100),
    kind: "public",
  }),
  ...messagesOf(registerClientFormSchema, { name: "Wiki", redirectUris: "https://a.example/cb", postLogoutRedirectUris: `https://a.example/${"x".repeat(2100)}`, kind: "public" }),
  // Invitations, the consent page, "Confirm it's you", single sign-on, stopping acting as someone.
  "You joined Acme Corp.",
  "You accepted the invitation.",
  "You declined the invitation to Acme Corp.",
  "You declined the invitation.",
  "We sent a verification link to ada@example.com. Follow it, then accept the invitation here.",
  ...(
    ["INVITATION_NOT_FOUND", "INVITER_IS_NO_LONGER_A_MEMBER_OF_THE_ORGANIZATION", "ORGANIZATION_MEMBERSHIP_LIMIT_REACHED", "USER_IS_ALREADY_A_MEMBER_OF_THIS_ORGANIZATION", "EMAIL_VERIFICATION_REQUIRED_BEFORE_ACCEPTING_OR_REJECTING_INVITATION"] as ErrorName[]
  ).map((code) => wordsFor(new AuthError(code))),
  "This request has expired. Go back to the application and start again.",
  "You are signed out. Sign in with the account you want to use.",
  "Thanks, it's confirmed. You can go on.",
  ...messagesOf(reverifyPasswordForm, {}),
  ...messagesOf(reverifyCodeForm, { code: "" }),
  ...(["INVALID_PASSWORD", "INVALID_CODE", "INVALID_OTP", "OTP_EXPIRED", "TOO_MANY_ATTEMPTS", "UNAUTHORIZED", "EMAIL_NOT_VERIFIED"] as ErrorName[]).map((code) => wordsFor(new AuthError(code))),
  ...["invalid_state", "invalid_provider", "access_denied", "email_domain_mismatch", "email_not_found", "banned", "invalid_id_token", "token_exchange_failed", "no_code", "other"].map((code) => ssoReturnProblem(code)!),
  ...Object.values(SSO_START_WORDS),
  "You stopped acting as Ada Lovelace.",
  "Your email address ada@example.com is verified, and you are signed in. Nothing you set up has changed.",
  "The change to ada@new.example was cancelled and every device was signed out.",
  "The change to ada@new.example was cancelled and every device was signed out. Choose a new password with the link we sent to ada@example.com before you sign in again.",
];

test("every sentence the sign-in pages write is one of the catalog's", () => {
  expect(written.length).toBeGreaterThan(30);
  expect(written.filter((text) => index.find(text) === null)).toEqual([]);
});

describe.each(SHIPPED_LANGUAGES.filter((language) => language !== "en"))("in %s", (language) => {
  const t = translator(language, SHIPPED_CATALOGS[language], source);
  test("each is said in the language, its numbers and names kept", () => {
    for (const text of written) {
      const { key } = index.find(text)!;
      // A word both languages spell alike ("Passkeys", "Sessions") is the only sentence left as it was.
      if (SHIPPED_CATALOGS[language][key] !== SHIPPED_CATALOGS.en[key]) expect(t.said(text), text).not.toBe(text);
    }
    expect(t.said(passwordLengthHint(bounds))).toContain("8");
    expect(t.said(PAGE_MESSAGES.TOO_MANY_REQUESTS(new AuthError("TOO_MANY_REQUESTS", { headers: { "Retry-After": "42" } })))).toContain("42");
  });
  test("a sentence it does not know is shown as written", () => {
    expect(t.said("Ada's own words")).toBe("Ada's own words");
  });
});

test("devices are composed in the reader's language", () => {
  expect(translator("de", SHIPPED_CATALOGS.de).device("Chrome on Linux")).toBe("Chrome unter Linux");
  expect(translator("ar", SHIPPED_CATALOGS.ar).device("Unknown device")).toBe("جهاز غير معروف");
  expect(translator("fr", SHIPPED_CATALOGS.fr).device("Firefox")).toBe("Firefox");
});

test("German words for a field rule, with its number", () => {
  const t = translator("de", SHIPPED_CATALOGS.de, source);
  expect(t.said("Use at least 8 characters.")).toBe("Verwenden Sie mindestens 8 Zeichen.");
  expect(t.said("Too many attempts. Try again in 1 second.")).toBe("Zu viele Versuche. Versuchen Sie es in 1 Sekunde noch einmal.");
});
