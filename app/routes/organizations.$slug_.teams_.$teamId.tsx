// /organizations/{slug}/teams/{teamId} (issue 42): one team for the organization's members (everyone else, and a
// team of another organization, get a 404). Its members for those who may see them; "Add to team" (the
// organization's members not in it) and "Remove from team" for those allowed; renaming; "Delete team" behind a
// confirmation saying members stay in the organization — for the last team, a sentence instead. Works without
// JavaScript; each success comes back with its confirmation focused at the top.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { idField } from "~/auth/organization/schemas";
import { organizationOfMember } from "~/auth/organization/organizations.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { renameTeamForm } from "~/auth/teams/schemas";
import { addTeamMember, removeTeamMember } from "~/auth/teams/team-members.server";
import { removeTeam, updateTeam } from "~/auth/teams/teams.server";
import { teamView } from "~/auth/teams/team-view.server";
import { FlashMessage, Section } from "~/components/account-sections";
import { ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { shownTabs } from "~/auth/organization/tabs.server";
import { Confirm, Refusal } from "~/components/organization-confirm";
import { OrganizationTabs } from "~/components/organization-tabs";
import { titleTranslator, withErrorTitle } from "~/components/page-title";
import { useT } from "~/i18n/react";
import { numberedPages, Pager, pageNumberOf } from "~/components/pager";
import { takeFlashNotice } from "~/http/flash.server";
import { goTo, intent, organizationAction, pageThatPosted, type IntentResult } from "~/http/organization-actions.server";
import { requirePageSession } from "~/http/page-session.server";

export const meta: MetaFunction<typeof loader> = withErrorTitle(({ data, matches }) => [
  { title: `${(data as { team?: { name: string } } | undefined)?.team?.name ?? titleTranslator(matches).t("orgs.team.fallbackTitle")} · Latchkey` },
]);

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const [current, ctx] = await requirePageSession(request, context);
  const view = await teamView(current, params.slug ?? "", params.teamId ?? "", pageNumberOf(request, "page"));
  if (!view) throw notFound();
  return data({ ...view, tabs: shownTabs(), flash: takeFlashNotice(request, ctx.responseHeaders) }, { headers: ctx.responseHeaders });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const organizationOf = async (current: SessionWithUser) => {
    const found = await organizationOfMember(current, { organizationSlug: params.slug ?? "" }).catch(() => null);
    if (!found) throw notFound();
    return found.organization;
  };
  const teamId = params.teamId ?? "";
  const teamsPage = (slug: string) => `/organizations/${encodeURIComponent(slug)}/teams`;
  return organizationAction({ request, context }, {
    "add-member": intent({
      schema: z.object({ userId: idField }),
      rateLimitAs: "/organization/add-team-member",
      session: "required",
      refusalShown: "page",
      run: async (value, current, ctx) => {
        await addTeamMember(current, { teamId, userId: value.userId, organizationId: (await organizationOf(current)).id }, ctx);
        return goTo(pageThatPosted(ctx.request), "Added to the team.");
      },
    }),
    "remove-member": intent({
      schema: z.object({ userId: idField }),
      rateLimitAs: "/organization/remove-team-member",
      session: "required",
      refusalShown: "page",
      run: async (value, current, ctx) => {
        await removeTeamMember(current, { teamId, userId: value.userId, organizationId: (await organizationOf(current)).id }, ctx);
        return goTo(pageThatPosted(ctx.request), "Removed from the team. They are still in the organization.");
      },
    }),
    rename: intent({
      schema: renameTeamForm,
      rateLimitAs: "/organization/update-team",
      session: "required",
      run: async (value, current, ctx) => {
        const team = await updateTeam(current, { teamId, data: { name: value.name, organizationId: (await organizationOf(current)).id } }, ctx);
        return goTo(pageThatPosted(ctx.request), `The team is now called ${team.name}.`);
      },
    }),
    "delete-team": intent({
      schema: z.object({}),
      rateLimitAs: "/organization/remove-team",
      session: "required",
      refusalShown: "page",
      run: async (_value, current, ctx) => {
        const organization = await organizationOf(current);
        await removeTeam(current, { teamId, organizationId: organization.id }, ctx);
        return goTo(teamsPage(organization.slug), "The team was deleted. Its members are still in the organization.");
      },
    }),
  });
}

export default function TeamPage() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>() as IntentResult | undefined;
  const [params] = useSearchParams();
  const { t, rich } = useT();
  const { organization, team, can } = page;
  const [rename, renameFields] = useZodForm("rename", renameTeamForm, last?.intent === "rename" ? last.result : undefined, { name: team.name });
  const here = `/organizations/${encodeURIComponent(organization.slug)}/teams/${encodeURIComponent(team.id)}`;
  const confirmingDelete = params.get("confirm") === "delete" && can.delete && !page.isLastTeam;
  return (
    <>
      <section>
        <h1>
          <bdi>{team.name}</bdi>
        </h1>
        <FlashMessage flash={page.flash} />
        <OrganizationTabs slug={organization.slug} current="teams" {...page.tabs} />
        <p className="muted">
          <Link to={`/organizations/${encodeURIComponent(organization.slug)}/teams`}>
            {rich("orgs.team.all", { name: organization.name }, { bdi: (chunks) => <bdi>{chunks}</bdi> })}
          </Link>
        </p>
      </section>

      <Section id="team-members" title={t("orgs.members.title")}>
        <Refusal last={last} intent="add-member" />
        <Refusal last={last} intent="remove-member" />
        {!page.seesMembers ? (
          <p className="muted">{t("orgs.team.membersHidden")}</p>
        ) : page.members.length === 0 ? (
          <p className="muted">{t("orgs.team.empty")}</p>
        ) : (
          <ul className="rows" aria-label={t("orgs.team.members")}>
            {page.members.map((m) => (
              <li key={m.userId} aria-label={m.email}>
                <span>
                  <strong>
                    <bdi>{m.name}</bdi>
                  </strong>{" "}
                  <span className="muted" dir="ltr">
                    {m.email}
                  </span>
                </span>
                {can.remove ? (
                  <Form method="post" className="inline">
                    <input type="hidden" name="intent" value="remove-member" />
                    <input type="hidden" name="userId" value={m.userId} />
                    <button type="submit" className="secondary" aria-label={t("orgs.team.removeOf", { email: m.email })}>
                      {t("orgs.team.remove")}
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
        )}
        {page.seesMembers ? (
          <Pager at={page.membersPage} noun="members" {...numberedPages(page.membersPage, (n) => `${here}?page=${n}#team-members`)} headingId="team-members-heading" />
        ) : null}
        {can.add ? (
          page.candidates.length ? (
            <Form method="post" className="organization-switcher" key={page.flash?.id}>
              <input type="hidden" name="intent" value="add-member" />
              <label htmlFor="add-user">{t("orgs.team.add")}</label>
              <select id="add-user" name="userId">
                {page.candidates.map((c) => (
                  <option key={c.userId} value={c.userId}>
                    {c.name ? `${c.name} (${c.email})` : c.email}
                  </option>
                ))}
              </select>
              <button type="submit">{t("orgs.team.add")}</button>
            </Form>
          ) : (
            <p className="muted">{t("orgs.team.everyoneIn")}</p>
          )
        ) : null}
      </Section>

      {can.rename ? (
        <Section id="rename" title={t("orgs.team.nameTitle")}>
          <Form method="post" {...getFormProps(rename)}>
            <ErrorSummary form={rename} />
            <input type="hidden" name="intent" value="rename" />
            <Field label={t("orgs.teams.name")} meta={renameFields.name} type="text" autoComplete="off" />
            <SubmitButton>{t("orgs.save")}</SubmitButton>
          </Form>
        </Section>
      ) : null}

      {can.delete ? (
        <Section id="delete-team" title={t("orgs.team.delete")}>
          <Refusal last={last} intent="delete-team" />
          {page.isLastTeam ? (
            <p data-testid="last-team">{t("orgs.team.lastTeam")}</p>
          ) : confirmingDelete ? (
            <Confirm question={rich("orgs.team.deleteQuestion", { name: team.name }, { bdi: (chunks) => <bdi>{chunks}</bdi> })} action={t("orgs.team.delete")} intent="delete-team">
              <p>{t("orgs.team.membersStay")}</p>
            </Confirm>
          ) : (
            <>
              <p className="muted">{t("orgs.team.membersStay")}</p>
              <Link to="?confirm=delete" className="button-link secondary">
                {t("orgs.team.delete")}
              </Link>
            </>
          )}
        </Section>
      ) : null}
    </>
  );
}
