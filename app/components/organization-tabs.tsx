// The tabs of one organization's pages (issue 42): plain links in a labelled nav, the current one marked with
// aria-current, so they work without JavaScript and read as navigation. A tab whose capability is switched off
// (AUTH_TEAMS, AUTH_CUSTOM_ROLES) is left out by passing `teams: false` / `roles: false`.
import { Link } from "@remix-run/react";

export type OrganizationTab = "members" | "teams" | "roles";

export function OrganizationTabs({ slug, current, teams = true, roles = true }: { slug: string; current: OrganizationTab; teams?: boolean; roles?: boolean }) {
  const base = `/organizations/${encodeURIComponent(slug)}`;
  const tabs: Array<{ tab: OrganizationTab; to: string; label: string; shown: boolean }> = [
    { tab: "members", to: base, label: "Members", shown: true },
    { tab: "teams", to: `${base}/teams`, label: "Teams", shown: teams },
    { tab: "roles", to: `${base}/roles`, label: "Roles", shown: roles },
  ];
  return (
    <nav aria-label="Organization" className="account-nav organization-tabs">
      <ul>
        {tabs
          .filter((t) => t.shown)
          .map((t) => (
            <li key={t.tab}>
              <Link to={t.to} aria-current={t.tab === current ? "page" : undefined}>
                {t.label}
              </Link>
            </li>
          ))}
      </ul>
    </nav>
  );
}
