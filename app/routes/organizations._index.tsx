// /organizations: the user's organizations with their role, invitations waiting for them, the active-organization
// switcher and the "Create organization" form. Everything works without JavaScript; with it, the slug is
// suggested from the name.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { safeRedirectTarget } from "~/auth/origin.server";
import { inboxUnproven, listUserInvitations } from "~/auth/organization/invitations.server";
import { countOrganizationsOf, createForSession, listOrganizationsWithRole, setActiveOrganization, switcherData } from "~/auth/organization/organizations.server";
import { createOrganizationForm, idField } from "~/auth/organization/schemas";
import { ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { OrganizationSwitcher, switchedWords } from "~/components/organization-switcher";
import { FlashMessage } from "~/components/account-sections";
import { pageTitle } from "~/components/page-title";
import { takeFlashNotice } from "~/http/flash.server";
import { goTo, intent, organizationAction } from "~/http/organization-actions.server";
import { requirePageSession } from "~/http/page-session.server";
import { numberedPages, Pager, pageNumberOf } from "~/components/pager";
import { pageAt } from "~/auth/schemas";
import { RoleNames } from "~/components/organization-words";
import { useT } from "~/i18n/react";

export const meta = pageTitle("orgs.list.title");

/** A person in many organizations sees them this many at a time, with plain links to the others. */
const ORGANIZATIONS_PER_PAGE = 50;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [current, ctx] = await requirePageSession(request, context);
  const page = pageNumberOf(request, "page");
  const [organizations, total, invitations, switcher] = await Promise.all([
    listOrganizationsWithRole(current.user.id, { limit: ORGANIZATIONS_PER_PAGE, offset: (page - 1) * ORGANIZATIONS_PER_PAGE }),
    countOrganizationsOf(current.user.id),
    listUserInvitations(current),
    switcherData(current),
  ]);
  return data(
    {
      organizations: organizations.map((o) => ({ id: o.id, name: o.name, slug: o.slug, role: o.role })),
      organizationsPage: pageAt(page, ORGANIZATIONS_PER_PAGE, organizations.length, total),
      invitations: invitations.map((i) => ({ id: i.id, organizationName: i.organizationName, role: i.role })),
      switcher,
      // Invitations to an unverified address are not listed: the page says why, and where to verify.
      invitationsHidden: inboxUnproven(current.user) ? current.user.email : null,
      flash: takeFlashNotice(request, ctx.responseHeaders),
    },
    { headers: ctx.responseHeaders },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  // Built here, not at module level: the browser bundle drops server modules.
  return organizationAction({ request, context }, {
    create: intent({
      schema: createOrganizationForm,
      rateLimitAs: "/organization/create",
      session: "required",
      run: async (value, current) => {
        const created = await createForSession(current, value);
        return goTo(`/organizations/${created.slug}`, `${created.name} was created. You can invite people now.`);
      },
    }),
    "set-active": intent({
      schema: z.object({ organizationId: idField.optional(), redirectTo: z.string().max(2048).optional() }),
      rateLimitAs: "/organization/set-active",
      session: "required",
      refusalShown: "page",
      run: async (value, current) => {
        const active = await setActiveOrganization(current, { organizationId: value.organizationId ?? null });
        return goTo(safeRedirectTarget(value.redirectTo, "/organizations"), switchedWords(active?.name ?? null));
      },
    }),
  });
}

/** "Acme Corp." → "acme-corp" */
function suggestSlug(name: string): string {
  return name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 64);
}

export default function Organizations() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const { t, rich } = useT();
  const [form, fields] = useZodForm("create-organization", createOrganizationForm, last?.intent === "create" ? last.result : undefined);
  return (
    <>
      <section>
        <h1 id="organizations-heading">{t("orgs.list.title")}</h1>
        <FlashMessage flash={page.flash} />
        <p className="muted">
          <Link to="/account">{t("orgs.list.backToAccount")}</Link>
        </p>
        {last?.intent === "set-active" && last.error ? <ErrorSummary errors={[last.error]} /> : null}
        <OrganizationSwitcher data={page.switcher} />
        {page.organizationsPage.total === 0 ? (
          <p>{t("orgs.list.none")}</p>
        ) : (
          <ul className="rows" aria-label={t("orgs.list.yours")}>
            {page.organizations.map((o) => (
              <li key={o.id}>
                <Link to={`/organizations/${o.slug}`}>
                  <bdi>{o.name}</bdi>
                </Link>
                <span className="muted">
                  <RoleNames role={o.role} />
                </span>
              </li>
            ))}
          </ul>
        )}
        <Pager
          at={page.organizationsPage}
          noun="organizations"
          {...numberedPages(page.organizationsPage, (n) => `/organizations?page=${n}`)}
          headingId="organizations-heading"
        />
      </section>
      {page.invitationsHidden ? (
        <section aria-labelledby="invitations-heading" data-testid="invitations-hidden">
          <h2 id="invitations-heading">{t("orgs.list.invitationsTitle")}</h2>
          <p>
            {rich(
              "orgs.list.invitationsHidden",
              { email: page.invitationsHidden },
              {
                address: (chunks) => (
                  <strong className="address" dir="ltr">
                    {chunks}
                  </strong>
                ),
                link: (chunks) => <Link to="/account">{chunks}</Link>,
              },
            )}
          </p>
        </section>
      ) : null}
      {page.invitations.length ? (
        <section aria-labelledby="invitations-heading">
          <h2 id="invitations-heading">{t("orgs.list.invitationsTitle")}</h2>
          <ul className="rows">
            {page.invitations.map((i) => (
              <li key={i.id}>
                <Link to={`/invitations/${i.id}`}>
                  <bdi>{i.organizationName}</bdi>
                </Link>
                <span className="muted">{rich("orgs.list.invitedAs", { role: i.role }, { roles: () => <RoleNames key="role" role={i.role} /> })}</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <section aria-labelledby="create-heading">
        <h2 id="create-heading">{t("orgs.list.createTitle")}</h2>
        <Form
          method="post"
          {...getFormProps(form)}
          onInput={(event) => {
            // With JavaScript: suggest the slug from the name until the slug is edited by hand.
            const target = event.target as HTMLInputElement;
            const slug = event.currentTarget.elements.namedItem("slug") as HTMLInputElement | null;
            if (!slug) return;
            if (target.name === "slug") slug.dataset.edited = "true";
            else if (target.name === "name" && slug.dataset.edited !== "true") slug.value = suggestSlug(target.value);
          }}
        >
          <ErrorSummary form={form} />
          <input type="hidden" name="intent" value="create" />
          <Field label={t("orgs.field.name")} meta={fields.name} type="text" autoComplete="organization" />
          <Field label={t("orgs.field.slug")} meta={fields.slug} type="text" autoComplete="off" />
          <p className="muted">{t("orgs.list.slugHint")}</p>
          <SubmitButton>{t("orgs.list.createSubmit")}</SubmitButton>
        </Form>
      </section>
    </>
  );
}
