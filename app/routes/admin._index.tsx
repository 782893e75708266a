// /admin: the accounts, newest first, searchable by e-mail or name and filterable (banned, admins, unverified),
// a page at a time. A plain GET form, so searching and paging work without JavaScript and can be bookmarked.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { isBanned } from "~/auth/admin/bans.server";
import type { ListUsersQuery } from "~/auth/admin/schemas";
import { listUsers } from "~/auth/admin/users.server";
import { FlashMessage } from "~/components/account-sections";
import { pageTitle } from "~/components/page-title";
import { Pager } from "~/components/pager";
import { When, whenOf } from "~/components/when";
import { AdminRole } from "~/components/admin-role";
import { requireConsoleAdmin } from "~/http/admin-pages.server";
import { takeFlashNotice } from "~/http/flash.server";
import { useT } from "~/i18n/react";

export const meta = pageTitle("admin.accounts.title");

const PAGE_SIZE = 25;
/**
 * Counted exactly up to here; past it the page says "more than" and pages on while pages are full: counting a
 * hundred thousand accounts for every page costs more than the page (docs/decisions/052-admin-search-indexes.md).
 */
const COUNT_UP_TO = 10_000;
const FILTERS: Record<string, Pick<ListUsersQuery, "filterField" | "filterValue" | "filterOperator">> = {
  all: {},
  banned: { filterField: "banned", filterValue: "true" },
  admins: { filterField: "role", filterValue: "admin", filterOperator: "contains" },
  unverified: { filterField: "emailVerified", filterValue: "false" },
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [admin, ctx] = await requireConsoleAdmin(request, context);
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").trim().slice(0, 254);
  const field = params.get("field") === "name" ? "name" : "email";
  const filter = Object.hasOwn(FILTERS, params.get("filter") ?? "") ? params.get("filter")! : "all";
  const page = Math.min(Math.max(1, Number.parseInt(params.get("page") ?? "1", 10) || 1), 100_000);
  const { users, total, totalIsExact } = await listUsers(
    admin,
    {
      ...(q ? { searchValue: q, searchField: field, searchOperator: "contains" } : {}),
      ...FILTERS[filter],
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
    },
    { countUpTo: COUNT_UP_TO },
  );
  const now = new Date();
  return data(
    {
      q,
      field,
      filter,
      page,
      pages: Math.max(1, Math.ceil(total / PAGE_SIZE)),
      total,
      totalIsExact,
      /** Past the counted pages, a full page means there may be more. */
      more: totalIsExact ? page * PAGE_SIZE < total : users.length === PAGE_SIZE,
      users: users.map((u) => ({
        id: u.id,
        name: u.name,
        email: u.email,
        emailVerified: u.emailVerified,
        role: u.role,
        banned: isBanned(u),
        created: whenOf(u.createdAt, now),
      })),
      flash: takeFlashNotice(request, ctx.responseHeaders),
    },
    { headers: ctx.responseHeaders },
  );
}

function pageLink(page: { q: string; field: string; filter: string }, n: number) {
  const query = new URLSearchParams({ ...(page.q ? { q: page.q, field: page.field } : {}), ...(page.filter !== "all" ? { filter: page.filter } : {}), page: String(n) });
  return `/admin?${query}`;
}

export default function AdminUsers() {
  const page = useLoaderData<typeof loader>();
  const t = useT();
  // A search or a filter narrows the list: the way back to every account is beside the count.
  const searching = page.q !== "" || page.filter !== "all";
  const count = !page.totalIsExact
    ? t.t("admin.accounts.countMoreThan", { total: t.number(page.total), page: page.page })
    : page.total === 0
      ? t.t(searching ? "admin.accounts.noMatch" : "admin.accounts.none")
      : t.t(page.pages > 1 ? "admin.accounts.countPaged" : "admin.accounts.count", { total: page.total, page: page.page, pages: page.pages });
  return (
    <section aria-labelledby="admin-heading">
      <h1 id="admin-heading">{t.t("admin.accounts.heading")}</h1>
      <FlashMessage flash={page.flash} />
      <p>
        {t.rich(
          "admin.accounts.applications",
          {},
          {
            link: (chunks: ReactNode[]) => <Link to="/admin/applications">{chunks}</Link>,
            muted: (chunks: ReactNode[]) => <span className="muted">{chunks}</span>,
          },
        )}
      </p>
      <Form method="get" className="admin-search" role="search" aria-label={t.t("admin.accounts.heading")}>
        <label>
          {t.t("admin.accounts.search")}
          <input type="search" name="q" defaultValue={page.q} maxLength={254} />
        </label>
        <label>
          {t.t("admin.accounts.in")}
          <select name="field" defaultValue={page.field}>
            <option value="email">{t.t("admin.accounts.byEmail")}</option>
            <option value="name">{t.t("admin.accounts.byName")}</option>
          </select>
        </label>
        <label>
          {t.t("admin.accounts.show")}
          <select name="filter" defaultValue={page.filter}>
            <option value="all">{t.t("admin.accounts.all")}</option>
            <option value="banned">{t.t("admin.accounts.banned")}</option>
            <option value="admins">{t.t("admin.accounts.admins")}</option>
            <option value="unverified">{t.t("admin.accounts.unverified")}</option>
          </select>
        </label>
        <button type="submit">{t.t("admin.accounts.searchButton")}</button>
      </Form>
      <p className="muted" data-testid="admin-count">
        {count}
        {searching ? (
          <>
            {" "}
            <Link to="/admin">{t.t("admin.accounts.clearSearch")}</Link>
          </>
        ) : null}
      </p>
      <ul className="admin-users">
        {page.users.map((u) => (
          <li key={u.id} data-testid="admin-user-row">
            <div>
              <Link to={`/admin/users/${encodeURIComponent(u.id)}`}>{u.name ? <bdi>{u.name}</bdi> : <span dir="ltr">{u.email}</span>}</Link>
              <div className="muted" dir="ltr">
                {u.email}
              </div>
            </div>
            <div className="muted">
              <AdminRole role={u.role} />
              {u.banned ? ` · ${t.t("admin.accounts.isBanned")}` : null}
              {u.emailVerified ? null : ` · ${t.t("admin.accounts.isUnverified")}`}
              <div>
                <When at={u.created} message="admin.accounts.created" />
              </div>
            </div>
          </li>
        ))}
      </ul>
      <Pager
        noun="accounts"
        at={{ first: (page.page - 1) * PAGE_SIZE + 1, shown: page.users.length, total: page.total, totalIsExact: page.totalIsExact }}
        previous={page.page > 1 ? pageLink(page, page.page - 1) : null}
        next={page.more ? pageLink(page, page.page + 1) : null}
        order="newest-first"
        headingId="admin-heading"
        testId="admin-accounts-shown"
      />
    </section>
  );
}
