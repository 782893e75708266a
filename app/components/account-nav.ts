// The account area's navigation: one entry per page under /account. A capability that adds an account page
// (organizations, passkeys, two-factor…) adds its entry here and a route file `app/routes/account.<page>.tsx`.
export interface AccountNavEntry {
  to: string;
  label: string;
  /** Exact match only (the overview), so it is not marked current on every nested page. */
  end?: boolean;
  /** One line on the overview, which links to every page: what the page is for. */
  description?: string;
}

export const ACCOUNT_NAV: AccountNavEntry[] = [
  { to: "/account", label: "Overview", end: true },
  { to: "/account/profile", label: "Profile", description: "Your name, picture and email address." },
  { to: "/account/security", label: "Security", description: "Your password." },
  { to: "/account/two-factor", label: "Two-factor", description: "A second step at sign-in: an authenticator app, backup codes." },
  { to: "/account/linked-accounts", label: "Linked accounts", description: "Sign in with GitHub, Google or your company's single sign-on." },
  { to: "/account/sessions", label: "Sessions", description: "Where you are signed in, and signing out other devices." },
  { to: "/account/passkeys", label: "Passkeys", description: "Signing in with your fingerprint, face or screen lock instead of a password." },
  { to: "/organizations", label: "Organizations" },
];

/** Shown to admins only (issue 30): the console. */
export const ADMIN_NAV_ENTRY: AccountNavEntry = { to: "/admin", label: "Admin" };
