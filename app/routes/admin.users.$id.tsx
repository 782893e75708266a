// /admin/users/{id}: one account for an admin — profile, ban state, sessions, sign-in methods, organizations and
// security events — and what an admin may do to it. Every action is a form post through the page pipeline to the
// same domain functions as the admin API (app/auth/admin), which record it as a security event of the account.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { isBanned } from "~/auth/admin/bans.server";
import { accountOverview, securityEventsPage } from "~/auth/admin/console.server";
import { impersonateUser } from "~/auth/admin/impersonation.server";
import { isAdminRole } from "~/auth/admin/permissions";
import {
  BAN_DURATIONS,
  banFormSchema,
  deleteUserFormSchema,
  noFieldsFormSchema,
  sessionIdFormSchema,
  setRoleFormSchema,
  setUserPasswordFormSchema,
} from "~/auth/admin/schemas";
import {
  banUser,
  findUserOrThrow,
  listUserSessions,
  removeUser,
  revokeUserSession,
  revokeUserSessions,
  sendPasswordResetByAdmin,
  setRole,
  setUserPassword,
  unbanUser,
} from "~/auth/admin/users.server";
import { passwordBounds } from "~/auth/account/password.server";
import { AuthError } from "~/auth/errors";
import { FlashMessage } from "~/components/account-sections";
import { AdminUserActions, RoleQuestion } from "~/components/admin-user-actions";
import { ErrorSummary } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { numberedPages, Pager, pageNumberOf } from "~/components/pager";
import { SessionRow, sessionRow } from "~/components/session-list";
import { AdminRole } from "~/components/admin-role";
import { EventWords } from "~/components/event-sentence";
import { When, whenOf } from "~/components/when";
import { isConsoleAdmin, notFound, requireConsoleAdmin } from "~/http/admin-pages.server";
import { takeFlashNotice } from "~/http/flash.server";
import { answerIntent, goTo, intent, pageAction } from "~/http/page-action.server";
import { lookAtSession } from "~/http/page-session.server";
import { roleName } from "~/auth/organization/role-names";
import { useT } from "~/i18n/react";

export const meta = pageTitle("admin.user.title");

async function accountFor(id: string) {
  try {
    return await findUserOrThrow(id);
  } catch (error) {
    if (error instanceof AuthError && error.code === "USER_NOT_FOUND") throw notFound();
    throw error;
  }
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const [admin, ctx] = await requireConsoleAdmin(request, context);
  const user = await accountFor(params.id ?? "");
  const eventsAsked = pageNumberOf(request, "events");
  const [sessions, overview, events] = await Promise.all([listUserSessions(admin, user.id), accountOverview(user.id), securityEventsPage(user.id, eventsAsked)]);
  const now = new Date();
  // ?set-role=…: the Role form asks before it changes anything (RoleQuestion).
  const askedRole = new URL(request.url).searchParams.get("set-role");
  const roleAsked: "admin" | "user" | null = askedRole === "admin" || askedRole === "user" ? askedRole : null;
  return data(
    {
      self: user.id === admin.user.id,
      user: {
        id: user.id,
        name: user.name,
        email: user.email,
        emailVerified: user.emailVerified,
        role: user.role,
        admin: isAdminRole(user.role),
        created: whenOf(user.createdAt, now),
        banned: isBanned(user),
        banReason: user.banReason,
        banEnds: user.banExpires && isBanned(user) ? user.banExpires.toISOString() : null,
      },
      roleAsked,
      sessions: sessions.map((s) => sessionRow(s, now, admin.session.id)),
      overview,
      events: events.events.map((e) => ({ ...e, at: whenOf(e.at, now) })),
      eventsAt: events.at,
      flash: takeFlashNotice(request, ctx.responseHeaders),
    },
    { headers: ctx.responseHeaders },
  );
}

export async function action(args: ActionFunctionArgs) {
  // Not an admin: the same 404 as the page itself, before anything is read.
  if (!isConsoleAdmin(await lookAtSession(args.request, args.context))) throw notFound();
  const userId = args.params.id ?? "";
  const here = `/admin/users/${encodeURIComponent(userId)}`;
  const back = (message: string) => goTo(here, message);
  const outcome = await pageAction(args, {
    ban: intent({
      schema: banFormSchema,
      rateLimitAs: "/admin/ban-user",
      session: "required",
      run: async (value, admin, ctx) => {
        const seconds = BAN_DURATIONS[value.duration];
        await banUser(ctx, admin, { userId, banReason: value.banReason || undefined, banExpiresIn: seconds || undefined });
        return back("The account is banned and signed out everywhere.");
      },
    }),
    unban: intent({
      schema: noFieldsFormSchema,
      rateLimitAs: "/admin/unban-user",
      session: "required",
      run: async (_value, admin, ctx) => {
        await unbanUser(ctx, admin, userId);
        return back("The ban is lifted: the account can sign in again.");
      },
    }),
    "set-role": intent({
      schema: setRoleFormSchema,
      rateLimitAs: "/admin/set-role",
      session: "required",
      run: async (value, admin, ctx) => {
        await setRole(ctx, admin, userId, value.role);
        return back(value.role === "admin" ? "The role is now admin." : "The role is now user.");
      },
    }),
    "send-reset": intent({
      schema: noFieldsFormSchema,
      rateLimitAs: "/request-password-reset",
      session: "required",
      run: async (_value, admin, ctx) => {
        const user = await sendPasswordResetByAdmin(ctx, admin, userId);
        return back(`A password reset link is on its way to ${user.email}.`);
      },
    }),
    "set-password": intent({
      schema: setUserPasswordFormSchema(passwordBounds()),
      rateLimitAs: "/admin/set-user-password",
      session: "required",
      hideFields: ["newPassword"],
      fieldFor: (error) => (error.code.startsWith("PASSWORD") ? "newPassword" : undefined),
      run: async (value, admin, ctx) => {
        await setUserPassword(ctx, admin, userId, value.newPassword);
        return back("The new password is set. Tell the owner through a channel you trust.");
      },
    }),
    impersonate: intent({
      schema: noFieldsFormSchema,
      rateLimitAs: "/admin/impersonate-user",
      session: "required",
      run: async (_value, admin, ctx) => {
        await impersonateUser(ctx, admin, userId);
        return goTo("/account");
      },
    }),
    "revoke-session": intent({
      schema: sessionIdFormSchema,
      rateLimitAs: "/admin/revoke-user-session",
      session: "required",
      run: async (value, admin, ctx) => {
        await revokeUserSession(ctx, admin, { id: value.sessionId, userId });
        return back("That session is signed out.");
      },
    }),
    "revoke-all": intent({
      schema: noFieldsFormSchema,
      rateLimitAs: "/admin/revoke-user-sessions",
      session: "required",
      run: async (_value, admin, ctx) => {
        await revokeUserSessions(ctx, admin, userId);
        return back("Every session of the account is signed out.");
      },
    }),
    delete: intent({
      schema: deleteUserFormSchema,
      rateLimitAs: "/admin/remove-user",
      session: "required",
      fieldFor: (error) => (error.code === "ACCOUNT_EMAIL_MISMATCH" ? "confirmEmail" : undefined),
      run: async (value, admin, ctx) => {
        const user = await findUserOrThrow(userId);
        if (value.confirmEmail.toLowerCase() !== user.email) throw new AuthError("ACCOUNT_EMAIL_MISMATCH", { message: `Type ${user.email} to confirm.` });
        await removeUser(ctx, admin, userId);
        return goTo("/admin", `The account ${user.email} is deleted.`);
      },
    }),
  });
  return answerIntent(outcome);
}

export default function AdminUser() {
  const { user, self, roleAsked, sessions, overview, events, eventsAt, flash } = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const t = useT();
  const pageError = last && "error" in last ? last.error : undefined;
  const refused = last && last.intent !== "set-password" && last.intent !== "delete" && last.result?.error?.[""];
  const here = `/admin/users/${encodeURIComponent(user.id)}`;
  const ltr = { ltr: (chunks: ReactNode[]) => <span dir="ltr">{chunks}</span> };
  const reason = user.banReason ? <bdi>{user.banReason}</bdi> : t.t("admin.user.noReason");
  return (
    <section aria-labelledby="user-heading">
      <p>
        <Link to="/admin">{t.t("admin.allAccounts")}</Link>
      </p>
      <h1 id="user-heading">{user.name ? <bdi>{user.name}</bdi> : <span dir="ltr">{user.email}</span>}</h1>
      <FlashMessage flash={flash} />
      <ErrorSummary id="page-errors" errors={[pageError, ...(refused || [])]} />
      {roleAsked && !self ? (
        roleAsked === (user.admin ? "admin" : "user") ? (
          <p className="notice" role="status">
            {t.rich("admin.user.roleUnchanged", { email: user.email, role: roleAsked }, ltr)}
          </p>
        ) : (
          <RoleQuestion user={user} role={roleAsked} here={here} />
        )
      ) : null}

      <h2>{t.t("admin.user.profile")}</h2>
      <dl className="admin-facts">
        <dt>{t.t("admin.user.name")}</dt>
        <dd>{user.name ? <bdi>{user.name}</bdi> : "—"}</dd>
        <dt>{t.t("admin.user.email")}</dt>
        <dd>
          <span dir="ltr">{user.email}</span> {t.t(user.emailVerified ? "admin.user.verified" : "admin.user.notVerified")}
        </dd>
        <dt>{t.t("admin.user.role")}</dt>
        <dd>
          <AdminRole role={user.role} />
        </dd>
        <dt>{t.t("admin.user.created")}</dt>
        <dd>
          <When at={user.created} />
        </dd>
        <dt>{t.t("admin.user.ban")}</dt>
        <dd>
          {!user.banned
            ? t.t("admin.user.notBanned")
            : user.banEnds
              ? t.rich("admin.user.bannedUntil", { until: t.dateTime(new Date(user.banEnds)) }, { reason: () => reason })
              : t.rich("admin.user.banned", {}, { reason: () => reason })}
        </dd>
      </dl>

      <h2>{t.t("admin.user.signInMethods")}</h2>
      <ul>
        <li>{t.t(overview.hasPassword ? "admin.user.passwordSet" : "admin.user.passwordNone")}</li>
        <li>{t.t("admin.user.passkeys", { count: overview.passkeys })}</li>
        <li>
          {overview.providers.length
            ? t.t("admin.user.linkedAccounts", { providers: t.list(overview.providers) })
            : t.t("admin.user.linkedAccountsNone")}
        </li>
        <li>{t.t(overview.twoFactorSetUp ? "admin.user.twoFactorOn" : "admin.user.twoFactorOff")}</li>
      </ul>

      <h2>{t.t("admin.user.organizations")}</h2>
      {overview.organizations.length ? (
        <ul>
          {overview.organizations.map((o) => (
            <li key={o.slug}>
              {t.rich("admin.user.organizationRole", { role: roleName(t.t, o.role) }, { name: () => <bdi key="name">{o.name}</bdi> })}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t.t("admin.user.noOrganizations")}</p>
      )}

      <h2>{t.t("admin.user.sessions")}</h2>
      {sessions.length ? (
        <ul className="sessions">
          {sessions.map((s) => (
            <SessionRow key={s.id} session={s} testId="admin-session-row" />
          ))}
        </ul>
      ) : (
        <p className="muted">{t.t("admin.user.noSessions")}</p>
      )}

      <h2 id="events">{t.t("admin.user.events")}</h2>
      {events.length ? (
        <ul>
          {events.map((e) => (
            <li key={e.id} data-testid="admin-event-row">
              <EventWords sentence={e.sentence} />
              {e.by ? <> {t.rich(e.by.deleted ? "admin.user.byDeleted" : "admin.user.by", { email: e.by.email }, ltr)}</> : null} ·{" "}
              <span className="muted">
                <When at={e.at} />
                {e.device ? ` · ${t.device(e.device)}` : ""}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">{t.t("admin.user.noEvents")}</p>
      )}
      <Pager
        noun="events"
        at={eventsAt}
        {...numberedPages(eventsAt, (n) => `${here}?events=${n}#events`)}
        order="newest-first"
        headingId="events"
        testId="admin-events-shown"
      />

      <h2>{t.t("admin.user.actions")}</h2>
      {self ? <p className="muted">{t.t("admin.user.ownAccount")}</p> : <AdminUserActions user={user} last={last} />}
    </section>
  );
}
