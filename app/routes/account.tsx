// The account area's frame: a navigation between its pages and the page itself (nested routes
// `account.<page>.tsx`). Each page has its own loader, which requires a session. With JavaScript, moving to
// another page moves the focus to its heading, as a page load would start a screen reader at the new page.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData, useLocation, useRouteLoaderData } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { enabledProviders } from "~/auth/social/providers/registry.server";
import { accountNav, ADMIN_NAV_ENTRY } from "~/components/account-nav";
import { OrganizationSwitcher } from "~/components/organization-switcher";
import { switcherLoader } from "~/http/organization-pages.server";
import type { loader as rootLoader } from "~/root";
import { useT } from "~/i18n/react";

export const loader = async ({ request, context }: LoaderFunctionArgs) => ({
  switcher: await switcherLoader(request, context),
  providerNames: enabledProviders().map((p) => p.name),
});

/**
 * After a client-side move to another account page, the focus goes to the new page's heading (read out with the
 * page's name), unless the page has focused its own news already (a confirmation or an error summary after a
 * form's redirect). A form answered on the same page is not a move: the page's own pattern places the focus.
 */
function useFocusOnNewPage() {
  const page = useRef<HTMLDivElement>(null);
  const { pathname } = useLocation();
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const active = document.activeElement;
    if (active?.matches(".notice, .error-summary")) return;
    const heading = page.current?.querySelector("h1");
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus();
  }, [pathname]);
  return page;
}

export default function AccountLayout() {
  const page = useFocusOnNewPage();
  const { switcher, providerNames } = useLoaderData<typeof loader>();
  // Admins also get the console (ADMIN_NAV_ENTRY); the console itself checks again.
  const admin = useRouteLoaderData<typeof rootLoader>("root")?.viewer?.admin === true;
  const entries = admin ? [...accountNav(providerNames), ADMIN_NAV_ENTRY] : accountNav(providerNames);
  const { t, said } = useT();
  return (
    <div className="account-area">
      <nav aria-label={t("account.navLabel")} className="account-nav">
        <ul>
          {entries.map((entry) => (
            <li key={entry.to}>
              <NavLink to={entry.to} end={entry.end} prefetch="intent">
                {said(entry.label)}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="account-page" ref={page}>
        <Outlet />
        {/* Below the page's own heading and content: the page comes first, for sight and for screen readers. */}
        <OrganizationSwitcher data={switcher} />
      </div>
    </div>
  );
}
