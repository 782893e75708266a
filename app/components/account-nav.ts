// The account area's navigation: one entry per page under /account. A capability that adds an account page
// (organizations, passkeys, two-factor…) adds its entry here and a route file `app/routes/account.<page>.tsx`.
export interface AccountNavEntry {
  to: string;
  label: string;
  /** Exact match only (the overview), so it is not marked current on every nested page. */
  end?: boolean;
  /** One line on the overview, which links to every page: what the page is for. */
  description?: string;
  /** Only when sign-in providers are configured; its description then names them (never one that is not there). */
  withProviders?: true;
}

export const ACCOUNT_NAV: AccountNavEntry[] = [
  { to: "/account", label: "Overview", end: true },
  { to: "/account/profile", label: "Profile", description: "Your name, picture and email address." },
  { to: "/account/security", label: "Security", description: "Your password." },
  { to: "/account/two-factor", label: "Two-factor", description: "A second step at sign-in: an authenticator app, backup codes." },
  { to: "/account/linked-accounts", label: "Linked accounts", withProviders: true },
  { to: "/account/sessions", label: "Sessions", description: "Where you are signed in, and signing out other devices." },
  { to: "/account/passkeys", label: "Passkeys", description: "Signing in with your fingerprint, face or screen lock instead of a password." },
  { to: "/account/applications", label: "Applications", description: "Applications you signed in to with this account, and revoking their access." },
  { to: "/account/activity", label: "Activity", description: "What happened to your account lately, and signing out everywhere if it wasn't you." },
  { to: "/organizations", label: "Organizations" },
];

/** "GitHub", "GitHub or Google", "GitHub, Google or Test SSO". */
export function oneOf(names: string[]): string {
  return names.length < 2 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names[names.length - 1]}`;
}

/** The entries as this server has them: the linked accounts' page names the configured providers, or is left out. */
export function accountNav(providerNames: string[]): AccountNavEntry[] {
  return ACCOUNT_NAV.flatMap((entry) => {
    if (!entry.withProviders) return [entry];
    return providerNames.length ? [{ ...entry, description: `Sign in with ${oneOf(providerNames)}.` }] : [];
  });
}
/** Shown to admins only (issue 30): the console. */
export const ADMIN_NAV_ENTRY: AccountNavEntry = { to: "/admin", label: "Admin" };
