// The sign-in pages and the account area, in every language (tests/e2e/every-language/check.ts).
import type { PageInEveryLanguage } from "./pages";

const signedOut = (name: string, address: string): PageInEveryLanguage => ({ name, signedOut: true, open: async () => address });
const account = (name: string, address: string): PageInEveryLanguage => ({ name, open: async () => address });

export const accountPages: PageInEveryLanguage[] = [
  signedOut("home", "/"),
  signedOut("sign-in", "/sign-in"),
  signedOut("sign-up", "/sign-up"),
  signedOut("a code by mail", "/sign-in/code"),
  signedOut("forgotten password", "/forgot-password"),
  { name: "not found", signedOut: true, status: 404, open: async () => "/no-such-page" },
  signedOut("a reset link that no longer works", "/reset-password?token=expired"),
  signedOut("a verification link's outcome", "/email-verified?error=token_expired"),
  signedOut("an account deleted", "/account-deleted"),
  { name: "a provider's error (spec §2)", signedOut: true, withoutScripts: true, open: async () => "/api/auth/error?error=state_not_found" },
  account("the step after a code made an account", "/welcome"),
  account("overview", "/account"),
  account("profile", "/account/profile"),
  account("security", "/account/security"),
  account("sessions", "/account/sessions"),
  account("passkeys", "/account/passkeys"),
  account("two-factor", "/account/two-factor"),
  account("linked accounts", "/account/linked-accounts"),
  account("applications", "/account/applications"),
  account("delete", "/account/delete"),
];
