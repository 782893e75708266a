// The account area's navigation: one entry per page under /account. A capability that adds an account page
// (organizations, passkeys, two-factor…) adds its entry here and a route file `app/routes/account.<page>.tsx`.
export interface AccountNavEntry {
  to: string;
  label: string;
  /** Exact match only (the overview), so it is not marked current on every nested page. */
  end?: boolean;
}

export const ACCOUNT_NAV: AccountNavEntry[] = [
  { to: "/account", label: "Overview", end: true },
  { to: "/account/passkeys", label: "Passkeys" },
];
