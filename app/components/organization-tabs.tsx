// The tabs of one organization's pages (issue 42): plain links in a labelled nav, the current one marked with
// aria-current, so they work without JavaScript and read as navigation. A tab whose capability is switched off
// (AUTH_TEAMS, AUTH_CUSTOM_ROLES) is left out by passing `teams: false` / `roles: false`.
import { Link } from "@remix-run/react";
import { useT } from "~/i18n/react";

export type OrganizationTab = "members" | "teams" | "roles";

export function OrganizationTabs({ slug, current, teams = true, roles = true }: { slug: string; current: OrganizationTab; teams?: boolean; roles?: boolean }) {
  const { t } = useT();
  const base = `/organizations/${encodeURIComponent(slug)}`;
  const tabs: Array<{ tab: OrganizationTab; to: string; label: string; shown: boolean }> = [
    { tab: "members", to: base, label: t("orgs.tabs.members"), shown: true },
    { tab: "teams", to: `${base}/teams`, label: t("orgs.tabs.teams"), shown: teams },
    { tab: "roles", to: `${base}/roles`, label: t("orgs.tabs.roles"), shown: roles },
  ];
  return (
    <nav aria-label={t("orgs.tabs.label")} className="account-nav organization-tabs">
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
