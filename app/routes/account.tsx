// The account area's frame: a navigation between its pages and the page itself (nested routes
// `account.<page>.tsx`). Each page has its own loader, which requires a session.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { ACCOUNT_NAV } from "~/components/account-nav";
import { OrganizationSwitcher } from "~/components/organization-switcher";
import { switcherLoader } from "~/http/organization-pages.server";

export const loader = ({ request, context }: LoaderFunctionArgs) => switcherLoader(request, context);

export default function AccountLayout() {
  return (
    <div className="account-area">
      <nav aria-label="Account" className="account-nav">
        <ul>
          {ACCOUNT_NAV.map((entry) => (
            <li key={entry.to}>
              <NavLink to={entry.to} end={entry.end} prefetch="intent">
                {entry.label}
              </NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div className="account-page">
        <OrganizationSwitcher data={useLoaderData<typeof loader>()} />
        <Outlet />
      </div>
    </div>
  );
}
