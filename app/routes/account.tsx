// The account area's frame: a navigation between its pages and the page itself (nested routes
// `account.<page>.tsx`). Each page has its own loader, which requires a session.
import { NavLink, Outlet } from "@remix-run/react";
import { ACCOUNT_NAV } from "~/components/account-nav";

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
        <Outlet />
      </div>
    </div>
  );
}
