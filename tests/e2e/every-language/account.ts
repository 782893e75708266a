// The sign-in pages and the account area, in every language (tests/e2e/every-language.spec.ts).
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
