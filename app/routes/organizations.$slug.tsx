// /organizations/{slug}: one organization for its members (everyone else gets a 404). Members with their role,
// pending invitations, the invite form, settings, leaving and deleting — each control shown only to members whose
// role allows it, decided by the same rules the domain enforces (permissions.ts). Works without JavaScript; each
// success comes back to this page with its confirmation focused at the top.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { z } from "zod";
import { cancelInvitation, inviteMember } from "~/auth/organization/invitations.server";
import { leaveOrganization, removeMember, updateMemberRole } from "~/auth/organization/members.server";
import { deleteOrganization, organizationOfMember, switcherData, updateOrganization } from "~/auth/organization/organizations.server";
import { memberView } from "~/auth/organization/member-view.server";
import { describeRole, parseRoles } from "~/auth/organization/permissions";
import { RoleNames, roleName } from "~/components/organization-words";
import { useT } from "~/i18n/react";
import type { RequestContext } from "~/auth/request-context.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { idField, inviteForm, memberRoleForm, organizationSettingsForm } from "~/auth/organization/schemas";
import { Confirm, Expiry, Refusal, useConfirming } from "~/components/organization-confirm";
import { CheckboxField, ErrorList, ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { OrganizationSwitcher } from "~/components/organization-switcher";
import { OrganizationTabs } from "~/components/organization-tabs";
import { InviteTeamBoxes } from "~/components/invite-teams";
import { inviteTeamsField } from "~/auth/teams/schemas";
import { teamsForInviteForm } from "~/auth/teams/team-view.server";
import { teamsOn } from "~/auth/teams/teams.server";
import { customRolesOn } from "~/auth/organization/custom-roles.server";
import { FlashMessage, Section } from "~/components/account-sections";
import { titleTranslator, withErrorTitle } from "~/components/page-title";
import { takeFlashNotice } from "~/http/flash.server";
import { goTo, intent, organizationAction, pageThatPosted, type IntentResult } from "~/http/organization-actions.server";
import { requirePageSession } from "~/http/page-session.server";
import { numberedPages, Pager, pageNumberOf } from "~/components/pager";

export const meta: MetaFunction<typeof loader> = withErrorTitle(({ data, matches }) => [
  { title: `${(data as { organization?: { name: string } } | undefined)?.organization?.name ?? titleTranslator(matches).t("orgs.tabs.label")} · Latchkey` },
]);

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const [current, ctx] = await requirePageSession(request, context);
  const view = await memberView(current, params.slug ?? "", pageNumberOf(request, "members"));
  if (!view) throw notFound();
  return data(
    {
      ...view,
      // Expiries are worded from the page's own moment, so the browser hydrates to the server's words.
      now: new Date().toISOString(),
      flash: takeFlashNotice(request, ctx.responseHeaders),
      switcher: await switcherData(current),
      // The invite form's optional team checkboxes (issue 42); null when teams are off.
      inviteTeams: view.can.invite ? await teamsForInviteForm(view.organization.id) : null,
      teamsOn: teamsOn(),
      rolesOn: customRolesOn(),
    },
    { headers: ctx.responseHeaders },
  );
}

/** The invite form with its optional teams (issue 42): ticked boxes named `teamId`. */
const inviteWithTeamsForm = inviteForm.extend({ teamId: inviteTeamsField });

const confirmField = z.boolean({ error: "Tick the box to confirm" }).refine((ticked) => ticked, "Tick the box to confirm");

export async function action({ request, context, params }: ActionFunctionArgs) {
  /** The organization this page is about, for the signed-in member (the domain checks their rights). */
  const organizationOf = async (current: SessionWithUser) => {
    const found = await organizationOfMember(current, { organizationSlug: params.slug ?? "" });
    if (!found) throw notFound();
    return found.organization;
  };
  const orgId = async (current: SessionWithUser) => (await organizationOf(current)).id;
  const here = (ctx: RequestContext, message: string) => goTo(pageThatPosted(ctx.request), message);
  return organizationAction({ request, context }, {
    "update-role": intent({
      schema: memberRoleForm,
      rateLimitAs: "/organization/update-member-role",
      session: "required",
      refusalShown: "page",
      run: async (value, current, ctx) => {
        const member = await updateMemberRole(current, { memberId: value.memberId, role: value.role, organizationId: await orgId(current) });
        return here(ctx, `${member.user.email} is now ${describeRole(member.role)}.`);
      },
    }),
    "remove-member": intent({
      schema: z.object({ memberId: idField }),
      rateLimitAs: "/organization/remove-member",
      session: "required",
      refusalShown: "page",
      run: async (value, current, ctx) => {
        const { member } = await removeMember(current, { memberIdOrEmail: value.memberId, organizationId: await orgId(current) });
        return here(ctx, `${member.user.email} was removed.`);
      },
    }),
    "cancel-invitation": intent({
      schema: z.object({ invitationId: idField }),
      rateLimitAs: "/organization/cancel-invitation",
      session: "required",
      refusalShown: "page",
      run: async (value, current, ctx) => {
        await orgId(current);
        const canceled = await cancelInvitation(current, value.invitationId);
        return here(ctx, `The invitation of ${canceled.email} was canceled.`);
      },
    }),
    invite: intent({
      schema: inviteWithTeamsForm,
      rateLimitAs: "/organization/invite-member",
      session: "required",
      run: async (value, current, ctx) => {
        const invitation = await inviteMember(current, { email: value.email, role: value.role, organizationId: await orgId(current), teamId: value.teamId });
        return here(ctx, `Invitation sent to ${invitation.email}.`);
      },
    }),
    settings: intent({
      schema: organizationSettingsForm,
      rateLimitAs: "/organization/update",
      session: "required",
      run: async (value, current) => {
        const updated = await updateOrganization(current, {
          organizationId: await orgId(current),
          data: { name: value.name, slug: value.slug, logo: value.logo ?? null },
        });
        return goTo(`/organizations/${updated.slug}`, "Settings saved.");
      },
    }),
    leave: intent({
      schema: z.object({}),
      rateLimitAs: "/organization/leave",
      session: "required",
      refusalShown: "page",
      run: async (_value, current) => {
        const organization = await organizationOf(current);
        await leaveOrganization(current, organization.id);
        return goTo("/organizations", `You left ${organization.name}.`);
      },
    }),
    delete: intent({
      schema: z.object({ confirm: confirmField }),
      rateLimitAs: "/organization/delete",
      session: "required",
      run: async (_value, current) => {
        const organization = await organizationOf(current);
        await deleteOrganization(current, organization.id);
        return goTo("/organizations", `${organization.name} was deleted.`);
      },
    }),
  });
}

type PageData = ReturnType<typeof useLoaderData<typeof loader>>;

/** Where the members shown sit in the whole list, and links to the pages before and after (plain links: no JS). */
function MembersPager({ slug, at }: { slug: string; at: PageData["membersPage"] }) {
  const href = (n: number) => `/organizations/${encodeURIComponent(slug)}?members=${n}#members`;
  return <Pager at={at} noun="members" {...numberedPages(at, href)} headingId="members-heading" testId="members-shown" />;
}

/** The invite form; keyed by the page's confirmation, so a sent invitation leaves it empty for the next one. */
function InviteForm({ roles, teams, last }: { roles: PageData["grantableRoles"]; teams: PageData["inviteTeams"]; last?: IntentResult }) {
  const { t } = useT();
  const [invite, inviteFields] = useZodForm("invite", inviteWithTeamsForm, last?.intent === "invite" ? last.result : undefined, { role: "member" });
  return (
    <Form method="post" {...getFormProps(invite)}>
      <h3>{t("orgs.invite.title")}</h3>
      <ErrorSummary form={invite} />
      <input type="hidden" name="intent" value="invite" />
      <Field label={t("orgs.invite.email")} meta={inviteFields.email} type="email" autoComplete="off" />
      <div className="field">
        <label htmlFor={inviteFields.role.id}>{t("orgs.invite.role")}</label>
        <select id={inviteFields.role.id} name={inviteFields.role.name} defaultValue="member">
          {roles.map((r) => (
            <option key={r} value={r}>
              {roleName(t, r)}
            </option>
          ))}
        </select>
        <ErrorList id={inviteFields.role.errorId} errors={inviteFields.role.errors} />
      </div>
      <InviteTeamBoxes teams={teams} />
      <SubmitButton>{t("orgs.invite.submit")}</SubmitButton>
    </Form>
  );
}

/** Leaving, or why the only owner cannot. */
function LeaveSection({ page, last, confirming }: { page: PageData; last?: IntentResult; confirming: boolean }) {
  const { t, rich } = useT();
  const { organization } = page;
  return (
    <Section id="leave" title={t("orgs.leave.title")}>
      <Refusal last={last} intent="leave" />
      {page.me.onlyOwner ? (
        <p data-testid="only-owner">
          {rich(
            "orgs.leave.onlyOwner",
            { name: organization.name, others: page.members.length > 1 ? "yes" : "no", canDelete: page.can.delete ? "yes" : "no" },
            { bdi: (chunks) => <bdi>{chunks}</bdi> },
          )}
        </p>
      ) : confirming ? (
        <Confirm question={rich("orgs.leave.question", { name: organization.name }, { bdi: (chunks) => <bdi>{chunks}</bdi> })} action={t("orgs.leave.submit")} intent="leave">
          <p>{t("orgs.leave.lose")}</p>
        </Confirm>
      ) : (
        <>
          <p className="muted">{t("orgs.leave.lose")}</p>
          <Link to="?confirm=leave" className="button-link secondary">
            {t("orgs.leave.submit")}
          </Link>
        </>
      )}
    </Section>
  );
}

function MemberRow({ m, page }: { m: PageData["members"][number]; page: PageData }) {
  const { t } = useT();
  return (
    <li aria-label={m.email}>
      <span>
        <strong>
          <bdi>{m.name}</bdi>
        </strong>{" "}
        <span className="muted" dir="ltr">
          {m.email}
        </span>
        <br />
        <span className="muted" data-testid="member-role">
          <RoleNames role={m.role} />
        </span>
      </span>
      <span className="row-actions">
        {m.mayChangeRole ? (
          <Form method="post" className="inline" key={`${m.id}-${page.flash?.id}`}>
            <input type="hidden" name="intent" value="update-role" />
            <input type="hidden" name="memberId" value={m.id} />
            <label htmlFor={`role-${m.id}`} className="visually-hidden">
              {t("orgs.members.roleOf", { email: m.email })}
            </label>
            <select id={`role-${m.id}`} name="role" defaultValue={parseRoles(m.role)[0]}>
              {page.grantableRoles.map((r) => (
                <option key={r} value={r}>
                  {roleName(t, r)}
                </option>
              ))}
            </select>{" "}
            <button type="submit" className="secondary">
              {t("orgs.members.changeRole")}
            </button>
          </Form>
        ) : null}{" "}
        {m.isMe && page.me.onlyOwner ? <span className="muted">{t("orgs.members.onlyOwner")}</span> : null}
        {m.mayRemove ? (
          <Link
            to={`?${new URLSearchParams({ confirm: "remove", member: m.id })}`}
            className="button-link secondary"
            aria-label={t("orgs.members.removeAction", { email: m.email })}
          >
            {t("orgs.members.remove")}
          </Link>
        ) : null}
      </span>
    </li>
  );
}

export default function OrganizationPage() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>() as IntentResult | undefined;
  const { t, rich } = useT();
  const { organization, can } = page;
  const [settings, settingsFields] = useZodForm("settings", organizationSettingsForm, last?.intent === "settings" ? last.result : undefined, {
    name: organization.name,
    slug: organization.slug,
    logo: organization.logo ?? "",
  });
  const confirming = useConfirming();
  const removing = confirming.what === "remove" ? page.members.find((m) => m.id === confirming.memberId && m.mayRemove) : undefined;
  const [remove, removeFields] = useZodForm("delete-organization", z.object({ confirm: confirmField }), last?.intent === "delete" ? last.result : undefined);
  const bdi = (chunks: ReactNode[]) => <bdi>{chunks}</bdi>;
  const ltr = (chunks: ReactNode[]) => <span dir="ltr">{chunks}</span>;
  return (
    <>
      <section>
        <h1>
          <bdi>{organization.name}</bdi>
        </h1>
        <FlashMessage flash={page.flash} />
        <p className="muted">
          <Link to="/organizations">{t("orgs.page.all")}</Link> · {rich("orgs.page.yourRole", { role: page.me.role }, { roles: () => <RoleNames key="role" role={page.me.role} /> })}
          {/* Owners and admins manage the organization's enterprise sign-in (issue 43). */}
          {parseRoles(page.me.role).some((role) => role === "owner" || role === "admin") ? (
            <>
              {" · "}
              <Link to={`/organizations/${encodeURIComponent(organization.slug)}/sso`}>{t("orgs.sso.title")}</Link>
            </>
          ) : null}
        </p>
        <OrganizationSwitcher data={page.switcher} />
        <OrganizationTabs slug={organization.slug} current="members" teams={page.teamsOn} roles={page.rolesOn} />
      </section>

      <Section id="members" title={t("orgs.members.title")}>
        <Refusal last={last} intent="update-role" />
        <Refusal last={last} intent="remove-member" />
        {confirming.what === "remove" && removing ? (
          <Confirm
            question={rich("orgs.members.removeQuestion", { email: removing.email, name: organization.name }, { bdi, ltr })}
            action={t("orgs.members.removeAction", { email: removing.email })}
            intent="remove-member"
            hidden={{ memberId: removing.id }}
          >
            <p>{t("orgs.members.removeLose")}</p>
          </Confirm>
        ) : null}
        <ul className="rows" aria-label={t("orgs.members.title")}>
          {page.members.map((m) => (
            <MemberRow key={m.id} m={m} page={page} />
          ))}
        </ul>
        <MembersPager slug={organization.slug} at={page.membersPage} />
      </Section>

      {page.invitations.length || can.invite ? (
        <Section id="invitations" title={t("orgs.invitations.title")}>
          <Refusal last={last} intent="cancel-invitation" />
          {page.invitations.length === 0 ? <p className="muted">{t("orgs.invitations.none")}</p> : null}
          <ul className="rows" aria-label={t("orgs.invitations.pending")}>
            {page.invitations.map((i) => (
              <li key={i.id} aria-label={i.email}>
                <span>
                  <span dir="ltr">{i.email}</span>{" "}
                  <span className="muted">
                    {rich(
                      "orgs.invitations.row",
                      { role: i.role },
                      { roles: () => <RoleNames key="role" role={i.role} />, expiry: () => <Expiry key="expiry" at={i.expiresAt} now={page.now} /> },
                    )}
                  </span>
                </span>
                {can.cancel ? (
                  <Form method="post" className="inline">
                    <input type="hidden" name="intent" value="cancel-invitation" />
                    <input type="hidden" name="invitationId" value={i.id} />
                    <button type="submit" className="secondary" aria-label={t("orgs.invitations.cancelOf", { email: i.email })}>
                      {t("orgs.invitations.cancel")}
                    </button>
                  </Form>
                ) : null}
              </li>
            ))}
          </ul>
          {can.invite ? <InviteForm key={page.flash?.id} roles={page.grantableRoles} teams={page.inviteTeams} last={last} /> : null}
        </Section>
      ) : null}

      {can.update ? (
        <Section id="settings" title={t("orgs.settings.title")}>
          <Form method="post" {...getFormProps(settings)}>
            <ErrorSummary form={settings} />
            <input type="hidden" name="intent" value="settings" />
            <Field label={t("orgs.field.name")} meta={settingsFields.name} type="text" autoComplete="organization" />
            <Field label={t("orgs.field.slug")} meta={settingsFields.slug} type="text" autoComplete="off" />
            <Field label={t("orgs.settings.logo")} meta={settingsFields.logo} type="url" autoComplete="off" />
            <SubmitButton>{t("orgs.save")}</SubmitButton>
          </Form>
        </Section>
      ) : null}

      <LeaveSection page={page} last={last} confirming={confirming.what === "leave"} />

      {can.delete ? (
        <Section id="delete" title={t("orgs.delete.title")}>
          <Form method="post" {...getFormProps(remove)}>
            <ErrorSummary form={remove} />
            <input type="hidden" name="intent" value="delete" />
            <p className="warning">{t("orgs.delete.warning")}</p>
            <CheckboxField label={t("orgs.delete.confirm", { name: organization.name })} meta={removeFields.confirm} />
            <button type="submit" className="danger">
              {t("orgs.delete.title")}
            </button>
          </Form>
        </Section>
      ) : null}
    </>
  );
}
