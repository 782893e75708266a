// /organizations/{slug}/roles/{role} (issue 42, ADR 069): one of the organization's own roles, for members who may see
// roles (everyone else gets a 404): its permissions as the same checkboxes, checked; rename and "Save" for those with
// `ac: update` who hold all of it; "Delete role" for `ac: delete` — or, while it is in use, what to do first.
// Works without JavaScript.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { permissionFromForm, rolesOrganizationId, roleView } from "~/auth/organization/role-view.server";
import { deleteRole, updateRole } from "~/auth/organization/roles.server";
import { roleForm } from "~/auth/organization/schemas";
import { FlashMessage, Section } from "~/components/account-sections";
import { ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { shownTabs } from "~/auth/organization/tabs.server";
import { OrganizationTabs } from "~/components/organization-tabs";
import { titleTranslator, withErrorTitle } from "~/components/page-title";
import { useT } from "~/i18n/react";
import { PermissionCheckboxes } from "~/components/role-permissions";
import { takeFlashNotice } from "~/http/flash.server";
import { goTo, intent, organizationAction, type IntentResult } from "~/http/organization-actions.server";
import { requirePageSession } from "~/http/page-session.server";

export const meta: MetaFunction<typeof loader> = withErrorTitle(({ data, matches }) => [
  { title: `${titleTranslator(matches).t("orgs.role.pageTitle", { name: (data as { role?: { name: string } } | undefined)?.role?.name ?? "" })} · Latchkey` },
]);

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const [current, ctx] = await requirePageSession(request, context);
  const view = await roleView(current, params.slug ?? "", params.role ?? "");
  if (!view) throw notFound();
  return data({ ...view, tabs: shownTabs(), flash: takeFlashNotice(request, ctx.responseHeaders) }, { headers: ctx.responseHeaders });
}

const rolesPage = (slug: string) => `/organizations/${encodeURIComponent(slug)}/roles`;

export async function action({ request, context, params }: ActionFunctionArgs) {
  const slug = params.slug ?? "";
  const organizationIdOr404 = async (current: Parameters<typeof rolesOrganizationId>[0]) => {
    const id = await rolesOrganizationId(current, slug);
    if (!id) throw notFound();
    return id;
  };
  return organizationAction({ request, context }, {
    "update-role": intent({
      schema: roleForm,
      rateLimitAs: "/organization/update-role",
      session: "required",
      run: async (value, current, ctx) => {
        const organizationId = await organizationIdOr404(current);
        const { roleData } = await updateRole(
          current,
          { roleName: params.role ?? "", organizationId, data: { roleName: value.name, permission: permissionFromForm(value.permission) } },
          ctx,
        );
        return goTo(`${rolesPage(slug)}/${encodeURIComponent(roleData.role)}`, `Role ${roleData.role} saved.`);
      },
    }),
    "delete-role": intent({
      schema: z.object({}),
      rateLimitAs: "/organization/delete-role",
      session: "required",
      refusalShown: "page",
      run: async (_value, current, ctx) => {
        const organizationId = await organizationIdOr404(current);
        await deleteRole(current, { roleName: params.role ?? "", organizationId }, ctx);
        return goTo(rolesPage(slug), `Role ${params.role ?? ""} deleted.`);
      },
    }),
  });
}

export default function RolePage() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>() as IntentResult | undefined;
  const { t, rich } = useT();
  const { organization, role } = page;
  const [update, updateFields] = useZodForm("update-role", roleForm, last?.intent === "update-role" ? last.result : undefined, { name: role.name });
  const held = page.inUse.members;
  return (
    <>
      <section>
        <h1>{rich("orgs.role.heading", { organization: organization.name, name: role.name }, { bdi: (chunks) => <bdi>{chunks}</bdi> })}</h1>
        <FlashMessage flash={page.flash} />
        <OrganizationTabs slug={organization.slug} current="roles" {...page.tabs} />
        <p>
          <Link to={rolesPage(organization.slug)}>{t("orgs.role.all")}</Link>
        </p>
      </section>

      <Section id="role" title={page.can.update ? t("orgs.role.change") : t("orgs.role.permissions")}>
        {page.can.update ? (
          <Form method="post" {...getFormProps(update)} key={page.flash?.id}>
            <ErrorSummary form={update} />
            <input type="hidden" name="intent" value="update-role" />
            <Field label={t("orgs.roles.name")} meta={updateFields.name} type="text" autoComplete="off" hint={t("orgs.role.renameHint")} />
            <PermissionCheckboxes groups={page.groups} idPrefix="role" />
            <SubmitButton>{t("orgs.save")}</SubmitButton>
          </Form>
        ) : (
          <>
            <p className="muted">{t("orgs.role.locked", { none: role.permissions.length ? "no" : "yes" })}</p>
            <PermissionCheckboxes groups={page.groups} idPrefix="role" locked />
          </>
        )}
      </Section>

      {page.can.delete ? (
        <Section id="delete-role" title={t("orgs.role.delete")}>
          {last?.intent === "delete-role" && last.error ? <ErrorSummary errors={[last.error]} /> : null}
          {held > 0 ? (
            <p data-testid="role-in-use">{t("orgs.role.heldBy", { count: held })}</p>
          ) : page.inUse.invitations > 0 ? (
            <p data-testid="role-in-use">{t("orgs.role.givenBy", { count: page.inUse.invitations })}</p>
          ) : (
            <Form method="post">
              <input type="hidden" name="intent" value="delete-role" />
              <p>{t("orgs.role.nobody")}</p>
              <button type="submit" className="danger">
                {t("orgs.role.delete")}
              </button>
            </Form>
          )}
        </Section>
      ) : null}
    </>
  );
}
