// /organizations/{slug}: one organization for its members (everyone else gets a 404). Members with their role,
// pending invitations, the invite form, settings, leaving and deleting — each control shown only to members whose
// role allows it, decided by the same rules the domain enforces (permissions.ts). Works without JavaScript; each
// success comes back to this page with its confirmation focused at the top.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { z } from "zod";
import { cancelInvitation, inviteMember } from "~/auth/organization/invitations.server";
import { leaveOrganization, removeMember, updateMemberRole } from "~/auth/organization/members.server";
import { deleteOrganization, organizationOfMember, switcherData, updateOrganization } from "~/auth/organization/organizations.server";
import { memberView } from "~/auth/organization/member-view.server";
import { describeRole, parseRoles } from "~/auth/organization/permissions";
import type { RequestContext } from "~/auth/request-context.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { idField, inviteForm, memberRoleForm, organizationSettingsForm } from "~/auth/organization/schemas";
import { ConfirmQuestion } from "~/components/confirm-question";
import { CheckboxField, ErrorList, ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { OrganizationSwitcher } from "~/components/organization-switcher";
import { OrganizationTabs } from "~/components/organization-tabs";
import { InviteTeamBoxes } from "~/components/invite-teams";
import { inviteTeamsField } from "~/auth/teams/schemas";
import { teamsForInviteForm } from "~/auth/teams/team-view.server";
import { teamsOn } from "~/auth/teams/teams.server";
import { customRolesOn } from "~/auth/organization/custom-roles.server";
import { FlashMessage, Section } from "~/components/account-sections";
import { withErrorTitle } from "~/components/page-title";
import { expiryWords } from "~/components/time";
import { takeFlashNotice } from "~/http/flash.server";
import { goTo, intent, organizationAction, pageThatPosted, type IntentResult } from "~/http/organization-actions.server";
import { requirePageSession } from "~/http/page-session.server";
import { numberedPages, Pager, pageNumberOf } from "~/components/pager";

export const meta: MetaFunction<typeof loader> = withErrorTitle(({ data }) => [
  { title: `${(data as { organization?: { name: string } } | undefined)?.organization?.name ?? "Organization"} · Latchkey` },
]);

const notFound = () => new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const [current, ctx] = await requirePageSession(request, context);
  const view = await memberView(current, params.slug ?? "", pageNumberOf(request, "members"));
  if (!view) throw notFound();
  const now = new Date();
  return data(
    {
      ...view,
      // Expiry in the reader's words, worked out here so the page reads the same without JavaScript.
      invitations: view.invitations.map((i) => ({ ...i, expiresIn: expiryWords(new Date(i.expiresAt), now) })),
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

/** The question before a step that cannot be taken back (`?confirm=`): a link there, then a form that does it. */
function useConfirming() {
  const [params] = useSearchParams();
  return { what: params.get("confirm"), memberId: params.get("member") };
}

/**
 * A confirmation step that works without JavaScript: the first button is a link to this page with `?confirm=`,
 * which shows the question, the button that does it, and a way back. Focused when it appears (with JavaScript, a
 * client navigation: ConfirmQuestion moves the focus and scrolls its buttons into view), so it is read.
 */
function Confirm({ question, children, action, intent: name, hidden }: { question: string; children?: ReactNode; action: string; intent: string; hidden?: Record<string, string> }) {
  const { pathname } = useLocation();
  return (
    <ConfirmQuestion className="confirm banner" labelledBy="confirm-question">
      <p id="confirm-question">
        <strong>{question}</strong>
      </p>
      {children}
      {/* Posted to the page without `?confirm=`, so the answer (or its refusal) does not ask again. */}
      <Form method="post" action={pathname} className="row-actions">
        <input type="hidden" name="intent" value={name} />
        {Object.entries(hidden ?? {}).map(([key, value]) => (
          <input key={key} type="hidden" name={key} value={value} />
        ))}
        <SubmitButton className="danger">{action}</SubmitButton>
        <Link to={pathname} className="button-link secondary">
          Cancel
        </Link>
      </Form>
    </ConfirmQuestion>
  );
}

/** A row-level or button-only form's refusal, in the section it came from (forms with fields show their own). */
function Refusal({ last, intent: name }: { last?: IntentResult; intent: string }) {
  return last?.intent === name && last.error ? <ErrorSummary errors={[last.error]} /> : null;
}

type PageData = ReturnType<typeof useLoaderData<typeof loader>>;

/** Where the members shown sit in the whole list, and links to the pages before and after (plain links: no JS). */
function MembersPager({ slug, at }: { slug: string; at: PageData["membersPage"] }) {
  const href = (n: number) => `/organizations/${encodeURIComponent(slug)}?members=${n}#members`;
  return <Pager at={at} noun="members" {...numberedPages(at, href)} headingId="members-heading" testId="members-shown" />;
}

/** The invite form; keyed by the page's confirmation, so a sent invitation leaves it empty for the next one. */
function InviteForm({ roles, teams, last }: { roles: PageData["grantableRoles"]; teams: PageData["inviteTeams"]; last?: IntentResult }) {
  const [invite, inviteFields] = useZodForm("invite", inviteWithTeamsForm, last?.intent === "invite" ? last.result : undefined, { role: "member" });
  return (
    <Form method="post" {...getFormProps(invite)}>
      <h3>Invite someone</h3>
      <ErrorSummary form={invite} />
      <input type="hidden" name="intent" value="invite" />
      <Field label="Email" meta={inviteFields.email} type="email" autoComplete="off" />
      <div className="field">
        <label htmlFor={inviteFields.role.id}>Role</label>
        <select id={inviteFields.role.id} name={inviteFields.role.name} defaultValue="member">
          {roles.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        <ErrorList id={inviteFields.role.errorId} errors={inviteFields.role.errors} />
      </div>
      <InviteTeamBoxes teams={teams} />
      <SubmitButton>Send invitation</SubmitButton>
    </Form>
  );
}

export default function OrganizationPage() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>() as IntentResult | undefined;
  const { organization, can } = page;
  const [settings, settingsFields] = useZodForm("settings", organizationSettingsForm, last?.intent === "settings" ? last.result : undefined, {
    name: organization.name,
    slug: organization.slug,
    logo: organization.logo ?? "",
  });
  const confirming = useConfirming();
  const removing = confirming.what === "remove" ? page.members.find((m) => m.id === confirming.memberId && m.mayRemove) : undefined;
  const [remove, removeFields] = useZodForm("delete-organization", z.object({ confirm: confirmField }), last?.intent === "delete" ? last.result : undefined);
  return (
    <>
      <section>
        <h1>{organization.name}</h1>
        <FlashMessage flash={page.flash} />
        <p className="muted">
          <Link to="/organizations">All organizations</Link> · your role: {describeRole(page.me.role)}
          {/* Owners and admins manage the organization's enterprise sign-in (issue 43). */}
          {parseRoles(page.me.role).some((role) => role === "owner" || role === "admin") ? (
            <>
              {" · "}
              <Link to={`/organizations/${encodeURIComponent(organization.slug)}/sso`}>Single sign-on</Link>
            </>
          ) : null}
        </p>
        <OrganizationSwitcher data={page.switcher} />
        <OrganizationTabs slug={organization.slug} current="members" teams={page.teamsOn} roles={page.rolesOn} />
      </section>

      <Section id="members" title="Members">
        <Refusal last={last} intent="update-role" />
        <Refusal last={last} intent="remove-member" />
        {confirming.what === "remove" && removing ? (
          <Confirm
            question={`Remove ${removing.email} from ${organization.name}?`}
            action={`Remove ${removing.email}`}
            intent="remove-member"
            hidden={{ memberId: removing.id }}
          >
            <p>They lose access to the organization until someone invites them again.</p>
          </Confirm>
        ) : null}
        <ul className="rows" aria-label="Members">
          {page.members.map((m) => (
            <li key={m.id} aria-label={m.email}>
              <span>
                <strong>{m.name}</strong> <span className="muted">{m.email}</span>
                <br />
                <span className="muted" data-testid="member-role">
                  {describeRole(m.role)}
                </span>
              </span>
              <span className="row-actions">
                {m.mayChangeRole ? (
                  <Form method="post" className="inline" key={`${m.id}-${page.flash?.id}`}>
                    <input type="hidden" name="intent" value="update-role" />
                    <input type="hidden" name="memberId" value={m.id} />
                    <label htmlFor={`role-${m.id}`} className="visually-hidden">
                      Role of {m.email}
                    </label>
                    <select id={`role-${m.id}`} name="role" defaultValue={parseRoles(m.role)[0]}>
                      {page.grantableRoles.map((r) => (
                        <option key={r} value={r}>
                          {r}
                        </option>
                      ))}
                    </select>{" "}
                    <button type="submit" className="secondary">
                      Change role
                    </button>
                  </Form>
                ) : null}{" "}
                {m.isMe && page.me.onlyOwner ? <span className="muted">You are the only owner.</span> : null}
                {m.mayRemove ? (
                  <Link
                    to={`?${new URLSearchParams({ confirm: "remove", member: m.id })}`}
                    className="button-link secondary"
                    aria-label={`Remove ${m.email}`}
                  >
                    Remove
                  </Link>
                ) : null}
              </span>
            </li>
          ))}
        </ul>
        <MembersPager slug={organization.slug} at={page.membersPage} />
      </Section>

      {page.invitations.length || can.invite ? (
        <Section id="invitations" title="Invitations">
          <Refusal last={last} intent="cancel-invitation" />
          {page.invitations.length === 0 ? <p className="muted">No pending invitations.</p> : null}
          <ul className="rows" aria-label="Pending invitations">
            {page.invitations.map((i) => (
              <li key={i.id} aria-label={i.email}>
                <span>
                  {i.email} <span className="muted">
                    as {describeRole(i.role)}, expires <time dateTime={i.expiresAt}>{i.expiresIn}</time>
                  </span>
                </span>
                {can.cancel ? (
                  <Form method="post" className="inline">
                    <input type="hidden" name="intent" value="cancel-invitation" />
                    <input type="hidden" name="invitationId" value={i.id} />
                    <button type="submit" className="secondary" aria-label={`Cancel the invitation of ${i.email}`}>
                      Cancel
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
        <Section id="settings" title="Settings">
          <Form method="post" {...getFormProps(settings)}>
            <ErrorSummary form={settings} />
            <input type="hidden" name="intent" value="settings" />
            <Field label="Name" meta={settingsFields.name} type="text" autoComplete="organization" />
            <Field label="Slug" meta={settingsFields.slug} type="text" autoComplete="off" />
            <Field label="Logo URL" meta={settingsFields.logo} type="url" autoComplete="off" />
            <SubmitButton>Save</SubmitButton>
          </Form>
        </Section>
      ) : null}

      <Section id="leave" title="Leave">
        <Refusal last={last} intent="leave" />
        {page.me.onlyOwner ? (
          <p data-testid="only-owner">
            You are the only owner of {organization.name}, so you cannot leave it or stop being its owner.{" "}
            {page.members.length > 1
              ? "Make another member an owner first"
              : "Invite someone and make them an owner first"}
            {can.delete ? ", or delete the organization." : "."}
          </p>
        ) : confirming.what === "leave" ? (
          <Confirm question={`Leave ${organization.name}?`} action="Leave organization" intent="leave">
            <p>You lose access to this organization until someone invites you again.</p>
          </Confirm>
        ) : (
          <>
            <p className="muted">You lose access to this organization until someone invites you again.</p>
            <Link to="?confirm=leave" className="button-link secondary">
              Leave organization
            </Link>
          </>
        )}
      </Section>

      {can.delete ? (
        <Section id="delete" title="Delete organization">
          <Form method="post" {...getFormProps(remove)}>
            <ErrorSummary form={remove} />
            <input type="hidden" name="intent" value="delete" />
            <p className="warning">This deletes the organization, its members' access and its invitations. It cannot be undone.</p>
            <CheckboxField label={`Yes, delete ${organization.name}`} meta={removeFields.confirm} />
            <button type="submit" className="danger">
              Delete organization
            </button>
          </Form>
        </Section>
      ) : null}
    </>
  );
}
