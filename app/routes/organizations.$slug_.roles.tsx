// /organizations/{slug}/roles (issue 42, ADR 069): an organization's roles for its members (everyone else gets a 404):
// the built-in ones read-only with their permissions in words, its own with how many hold each, and "Create role"
// with one checkbox per permission for those with `ac: create`. Works without JavaScript; a success comes back here
// with its confirmation focused at the top.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { permissionFromForm, rolesOrganizationId, rolesView } from "~/auth/organization/role-view.server";
import { createRole } from "~/auth/organization/roles.server";
import { roleForm } from "~/auth/organization/schemas";
import { FlashMessage, Section } from "~/components/account-sections";
import { ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { shownTabs } from "~/auth/organization/tabs.server";
import { OrganizationTabs } from "~/components/organization-tabs";
import { titleTranslator, withErrorTitle } from "~/components/page-title";
import { PermissionNames, roleName } from "~/components/organization-words";
import { useT } from "~/i18n/react";
import { PermissionCheckboxes } from "~/components/role-permissions";
import { takeFlashNotice } from "~/http/flash.server";
import { goTo, intent, organizationAction, pageThatPosted, type IntentResult } from "~/http/organization-actions.server";
import { requirePageSession } from "~/http/page-session.server";

export const meta: MetaFunction<typeof loader> = withErrorTitle(({ data, matches }) => {
  const t = titleTranslator(matches);
  const name = (data as { organization?: { name: string } } | undefined)?.organization?.name ?? t.t("orgs.tabs.label");
  return [{ title: `${t.t("orgs.roles.pageTitle", { name })} · Latchkey` }];
});

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const [current, ctx] = await requirePageSession(request, context);
  const view = await rolesView(current, params.slug ?? "");
  if (!view) throw notFound();
  return data({ ...view, tabs: shownTabs(), flash: takeFlashNotice(request, ctx.responseHeaders) }, { headers: ctx.responseHeaders });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  return organizationAction({ request, context }, {
    "create-role": intent({
      schema: roleForm,
      rateLimitAs: "/organization/create-role",
      session: "required",
      run: async (value, current, ctx) => {
        // Anyone who may not see the page gets its 404.
        const organizationId = await rolesOrganizationId(current, params.slug ?? "");
        if (!organizationId) throw notFound();
        const { roleData } = await createRole(current, { role: value.name, permission: permissionFromForm(value.permission), organizationId }, ctx);
        return goTo(pageThatPosted(ctx.request), `Role ${roleData.role} created.`);
      },
    }),
  });
}

export default function RolesPage() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>() as IntentResult | undefined;
  const { t } = useT();
  const { organization } = page;
  const [create, createFields] = useZodForm("create-role", roleForm, last?.intent === "create-role" ? last.result : undefined);
  const base = `/organizations/${encodeURIComponent(organization.slug)}/roles`;
  return (
    <>
      <section>
        <h1>
          <bdi>{organization.name}</bdi>
        </h1>
        <FlashMessage flash={page.flash} />
        <OrganizationTabs slug={organization.slug} current="roles" {...page.tabs} />
      </section>

      <Section id="built-in-roles" title={t("orgs.roles.builtIn")}>
        <p className="muted">{t("orgs.roles.builtInLead")}</p>
        <ul className="rows" aria-label={t("orgs.roles.builtIn")}>
          {page.builtIn.map((r) => (
            <li key={r.name} aria-label={roleName(t, r.name)}>
              <span>
                <strong>{roleName(t, r.name)}</strong>
                <br />
                <span className="muted">
                  <PermissionNames permissions={r.permissions} />
                </span>
              </span>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="custom-roles" title={t("orgs.roles.own")}>
        {!page.can.read ? (
          <p className="muted">{t("orgs.roles.ownHidden")}</p>
        ) : page.customRoles.length === 0 ? (
          <p className="muted">{t("orgs.roles.ownNone")}</p>
        ) : (
          <ul className="rows" aria-label={t("orgs.roles.own")}>
            {page.customRoles.map((r) => (
              <li key={r.name} aria-label={r.name}>
                <span>
                  <Link to={`${base}/${encodeURIComponent(r.name)}`}>
                    <strong>
                      <bdi>{r.name}</bdi>
                    </strong>
                  </Link>{" "}
                  <span className="muted" data-testid="role-holders">
                    {t("orgs.roles.heldBy", { count: r.holders })}
                  </span>
                  <br />
                  <span className="muted">
                    <PermissionNames permissions={r.permissions} />
                  </span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>

      {page.can.create ? (
        <Section id="create-role" title={t("orgs.roles.create")}>
          <Form method="post" {...getFormProps(create)} key={page.flash?.id}>
            <ErrorSummary form={create} />
            <input type="hidden" name="intent" value="create-role" />
            <Field
              label={t("orgs.roles.name")}
              meta={createFields.name}
              type="text"
              autoComplete="off"
              hint={t("orgs.roles.nameHint")}
            />
            <PermissionCheckboxes groups={page.groups} idPrefix="create" />
            <SubmitButton>{t("orgs.roles.create")}</SubmitButton>
          </Form>
        </Section>
      ) : null}
    </>
  );
}
