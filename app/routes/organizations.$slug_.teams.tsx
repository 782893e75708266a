// /organizations/{slug}/teams (issue 42): an organization's teams for its members (everyone else gets a 404), 50 a
// page with how many are in each; "Create team" for those with `team: create`; "Make active" on one's own teams.
// Works without JavaScript; each success comes back here with its confirmation focused at the top.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { idField } from "~/auth/organization/schemas";
import { organizationOfMember } from "~/auth/organization/organizations.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { createTeamForm } from "~/auth/teams/schemas";
import { makeTeamActive } from "~/auth/teams/team-members.server";
import { createTeam } from "~/auth/teams/teams.server";
import { teamsView } from "~/auth/teams/team-view.server";
import { FlashMessage, Section } from "~/components/account-sections";
import { ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { shownTabs } from "~/auth/organization/tabs.server";
import { OrganizationTabs } from "~/components/organization-tabs";
import { titleTranslator, withErrorTitle } from "~/components/page-title";
import { useT } from "~/i18n/react";
import { numberedPages, Pager, pageNumberOf } from "~/components/pager";
import { takeFlashNotice } from "~/http/flash.server";
import { goTo, intent, organizationAction, pageThatPosted, type IntentResult } from "~/http/organization-actions.server";
import { requirePageSession } from "~/http/page-session.server";

export const meta: MetaFunction<typeof loader> = withErrorTitle(({ data, matches }) => {
  const t = titleTranslator(matches);
  const name = (data as { organization?: { name: string } } | undefined)?.organization?.name ?? t.t("orgs.tabs.label");
  return [{ title: `${t.t("orgs.teams.pageTitle", { name })} · Latchkey` }];
});

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const [current, ctx] = await requirePageSession(request, context);
  const view = await teamsView(current, params.slug ?? "", pageNumberOf(request, "page"));
  if (!view) throw notFound();
  return data({ ...view, tabs: shownTabs(), flash: takeFlashNotice(request, ctx.responseHeaders) }, { headers: ctx.responseHeaders });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const orgId = async (current: SessionWithUser) => {
    const found = await organizationOfMember(current, { organizationSlug: params.slug ?? "" }).catch(() => null);
    if (!found) throw notFound();
    return found.organization.id;
  };
  return organizationAction({ request, context }, {
    "create-team": intent({
      schema: createTeamForm,
      rateLimitAs: "/organization/create-team",
      session: "required",
      run: async (value, current, ctx) => {
        const team = await createTeam(current, { name: value.name, organizationId: await orgId(current) }, ctx);
        return goTo(pageThatPosted(ctx.request), `Team ${team.name} created.`);
      },
    }),
    "make-active": intent({
      schema: z.object({ teamId: idField }),
      rateLimitAs: "/organization/set-active-team",
      session: "required",
      refusalShown: "page",
      run: async (value, current, ctx) => {
        const team = await makeTeamActive(current, await orgId(current), value.teamId);
        return goTo(pageThatPosted(ctx.request), `${team.name} is your active team.`);
      },
    }),
  });
}

export default function TeamsPage() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>() as IntentResult | undefined;
  const { t } = useT();
  const { organization } = page;
  const [create, createFields] = useZodForm("create-team", createTeamForm, last?.intent === "create-team" ? last.result : undefined);
  const base = `/organizations/${encodeURIComponent(organization.slug)}/teams`;
  return (
    <>
      <section>
        <h1>
          <bdi>{organization.name}</bdi>
        </h1>
        <FlashMessage flash={page.flash} />
        <OrganizationTabs slug={organization.slug} current="teams" {...page.tabs} />
      </section>

      <Section id="teams" title={t("orgs.teams.title")}>
        {last?.intent === "make-active" && last.error ? <ErrorSummary errors={[last.error]} /> : null}
        {page.teams.length === 0 ? <p className="muted">{t("orgs.teams.none")}</p> : null}
        <ul className="rows" aria-label={t("orgs.teams.title")}>
          {page.teams.map((team) => (
            <li key={team.id} aria-label={team.name}>
              <span>
                <Link to={`${base}/${encodeURIComponent(team.id)}`}>
                  <strong>
                    <bdi>{team.name}</bdi>
                  </strong>
                </Link>{" "}
                <span className="muted" data-testid="team-members">
                  {t("orgs.teams.members", { count: team.members })}
                  {team.mine ? ` · ${t("orgs.teams.yoursToo")}` : ""}
                </span>
                {team.active ? (
                  <>
                    {" "}
                    <strong data-testid="active-team">{t("orgs.teams.active")}</strong>
                  </>
                ) : null}
              </span>
              {team.mine && !team.active ? (
                <Form method="post" className="inline">
                  <input type="hidden" name="intent" value="make-active" />
                  <input type="hidden" name="teamId" value={team.id} />
                  <button type="submit" className="secondary" aria-label={t("orgs.teams.makeActiveOf", { name: team.name })}>
                    {t("orgs.teams.makeActive")}
                  </button>
                </Form>
              ) : null}
            </li>
          ))}
        </ul>
        <Pager at={page.teamsPage} noun="teams" {...numberedPages(page.teamsPage, (n) => `${base}?page=${n}#teams`)} headingId="teams-heading" testId="teams-shown" />
      </Section>

      {page.can.create ? (
        <Section id="create-team" title={t("orgs.teams.create")}>
          <Form method="post" {...getFormProps(create)} key={page.flash?.id}>
            <ErrorSummary form={create} />
            <input type="hidden" name="intent" value="create-team" />
            <Field label={t("orgs.teams.name")} meta={createFields.name} type="text" autoComplete="off" />
            <SubmitButton>{t("orgs.teams.create")}</SubmitButton>
          </Form>
        </Section>
      ) : null}
    </>
  );
}
