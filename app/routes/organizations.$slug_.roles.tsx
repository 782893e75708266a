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
import { withErrorTitle } from "~/components/page-title";
import { PermissionCheckboxes } from "~/components/role-permissions";
import { takeFlashNotice } from "~/http/flash.server";
import { goTo, intent, organizationAction, pageThatPosted, type IntentResult } from "~/http/organization-actions.server";
import { requirePageSession } from "~/http/page-session.server";

export const meta: MetaFunction<typeof loader> = withErrorTitle(({ data }) => [
  { title: `Roles · ${(data as { organization?: { name: string } } | undefined)?.organization?.name ?? "Organization"} · Latchkey` },
]);

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
  const { organization } = page;
  const [create, createFields] = useZodForm("create-role", roleForm, last?.intent === "create-role" ? last.result : undefined);
  const base = `/organizations/${encodeURIComponent(organization.slug)}/roles`;
  return (
    <>
      <section>
        <h1>{organization.name}</h1>
        <FlashMessage flash={page.flash} />
        <OrganizationTabs slug={organization.slug} current="roles" {...page.tabs} />
      </section>

      <Section id="built-in-roles" title="Built-in roles">
        <p className="muted">These come with every organization and cannot be changed.</p>
        <ul className="rows" aria-label="Built-in roles">
          {page.builtIn.map((r) => (
            <li key={r.name} aria-label={r.name}>
              <span>
                <strong>{r.name}</strong>
                <br />
                <span className="muted">{r.permissions.length ? r.permissions.join(", ") : "No permissions"}</span>
              </span>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="custom-roles" title="This organization's roles">
        {!page.can.read ? (
          <p className="muted">Your role does not let you see this organization's own roles.</p>
        ) : page.customRoles.length === 0 ? (
          <p className="muted">No roles of its own yet.</p>
        ) : (
          <ul className="rows" aria-label="This organization's roles">
            {page.customRoles.map((r) => (
              <li key={r.name} aria-label={r.name}>
                <span>
                  <Link to={`${base}/${encodeURIComponent(r.name)}`}>
                    <strong>{r.name}</strong>
                  </Link>{" "}
                  <span className="muted" data-testid="role-holders">
                    {r.holders === 1 ? "held by 1 member" : `held by ${r.holders} members`}
                  </span>
                  <br />
                  <span className="muted">{r.permissions.length ? r.permissions.join(", ") : "No permissions"}</span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </Section>

      {page.can.create ? (
        <Section id="create-role" title="Create role">
          <Form method="post" {...getFormProps(create)} key={page.flash?.id}>
            <ErrorSummary form={create} />
            <input type="hidden" name="intent" value="create-role" />
            <Field
              label="Role name"
              meta={createFields.name}
              type="text"
              autoComplete="off"
              hint="Lower-case letters, digits, dashes or underscores, up to 50."
            />
            <PermissionCheckboxes groups={page.groups} idPrefix="create" />
            <SubmitButton>Create role</SubmitButton>
          </Form>
        </Section>
      ) : null}
    </>
  );
}
