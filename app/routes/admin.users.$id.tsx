// /admin/users/{id}: one account for an admin — profile, ban state, sessions, sign-in methods, organizations and
// security events — and what an admin may do to it. Every action is a form post through the page pipeline to the
// same domain functions as the admin API (app/auth/admin), which record it as a security event of the account.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
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
import { expiryWords } from "~/components/time";
import { When, whenOf } from "~/components/when";
import { isConsoleAdmin, notFound, requireConsoleAdmin } from "~/http/admin-pages.server";
import { takeFlashNotice } from "~/http/flash.server";
import { answerIntent, goTo, intent, pageAction } from "~/http/page-action.server";
import { lookAtSession } from "~/http/page-session.server";

export const meta = pageTitle("Admin: account");

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
        banEnds: user.banExpires && isBanned(user) ? expiryWords(user.banExpires, now) : null,
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
        return back(`The role is now ${value.role}.`);
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
  const pageError = last && "error" in last ? last.error : undefined;
  const refused = last && last.intent !== "set-password" && last.intent !== "delete" && last.result?.error?.[""];
  const here = `/admin/users/${encodeURIComponent(user.id)}`;
  return (
    <section aria-labelledby="user-heading">
      <p>
        <Link to="/admin">All accounts</Link>
      </p>
      <h1 id="user-heading">{user.name || user.email}</h1>
      <FlashMessage flash={flash} />
      <ErrorSummary id="page-errors" errors={[pageError, ...(refused || [])]} />
      {roleAsked && !self ? (
        roleAsked === (user.admin ? "admin" : "user") ? (
          <p className="notice" role="status">
            {user.email} is already {roleAsked === "admin" ? "an admin" : "a user"}: nothing to change.
          </p>
        ) : (
          <RoleQuestion user={user} role={roleAsked} here={here} />
        )
      ) : null}

      <h2>Profile</h2>
      <dl className="admin-facts">
        <dt>Name</dt>
        <dd>{user.name || "—"}</dd>
        <dt>Email</dt>
        <dd>
          {user.email} {user.emailVerified ? "(verified)" : "(not verified)"}
        </dd>
        <dt>Role</dt>
        <dd>{user.role}</dd>
        <dt>Created</dt>
        <dd>
          <When at={user.created} />
        </dd>
        <dt>Ban</dt>
        <dd>{user.banned ? `Banned${user.banEnds ? ` until ${user.banEnds}` : ""}: ${user.banReason ?? "No reason"}` : "Not banned"}</dd>
      </dl>

      <h2>Sign-in methods</h2>
      <ul>
        <li>Password: {overview.hasPassword ? "set" : "none"}</li>
        <li>Passkeys: {overview.passkeys}</li>
        <li>Linked accounts: {overview.providers.length ? overview.providers.join(", ") : "none"}</li>
        <li>Two-factor: {overview.twoFactorSetUp ? "on" : "off"}</li>
      </ul>

      <h2>Organizations</h2>
      {overview.organizations.length ? (
        <ul>
          {overview.organizations.map((o) => (
            <li key={o.slug}>
              {o.name} ({o.role})
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None.</p>
      )}

      <h2>Sessions</h2>
      {sessions.length ? (
        <ul className="sessions">
          {sessions.map((s) => (
            <SessionRow key={s.id} session={s} testId="admin-session-row" />
          ))}
        </ul>
      ) : (
        <p className="muted">Not signed in anywhere.</p>
      )}

      <h2 id="events">Security events</h2>
      {events.length ? (
        <ul>
          {events.map((e) => (
            <li key={e.id} data-testid="admin-event-row">
              {e.what}
              {e.by ? ` (by ${e.by})` : ""} ·{" "}
              <span className="muted">
                <When at={e.at} />
                {e.device ? ` · ${e.device}` : ""}
              </span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted">None recorded.</p>
      )}
      <Pager
        noun="events"
        at={eventsAt}
        {...numberedPages(eventsAt, (n) => `${here}?events=${n}#events`)}
        order="newest-first"
        headingId="events"
        testId="admin-events-shown"
      />

      <h2>Actions</h2>
      {self ? (
        <p className="muted">This is your own account: you cannot ban, demote, impersonate or delete it here.</p>
      ) : (
        <AdminUserActions user={user} last={last} />
      )}
    </section>
  );
}
