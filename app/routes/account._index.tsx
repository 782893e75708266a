import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { describeDevice } from "~/auth/device";
import { emailVerificationEnabled } from "~/auth/email-verification.server";
import { hasPassword } from "~/auth/password-flows.server";
import { passwordBounds } from "~/auth/password.server";
import { listSessions } from "~/auth/session.server";
import {
  ChangeEmailSection,
  ChangePasswordSection,
  DeleteAccountSection,
  ProfileSection,
  SetPasswordSection,
  VerifyEmailBanner,
} from "~/components/account-sections";
import { ErrorList, SubmitButton } from "~/components/forms";
import { env } from "~/env.server";
import { ACCOUNT_NOTICES, runAccountAction } from "~/http/account-actions.server";
import { requirePageSession } from "~/http/page.server";

export const meta: MetaFunction = () => [{ title: "Your account · Latchkey" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [{ user, session }, ctx] = await requirePageSession(request, context);
  const [sessions, withPassword] = await Promise.all([listSessions(user.id), hasPassword(user.id)]);
  const noticeKey = new URL(request.url).searchParams.get("notice");
  const notice = Object.values(ACCOUNT_NOTICES).find((n) => n.key === noticeKey)?.text ?? null;
  return data(
    {
      user: { name: user.name, email: user.email, image: user.image, emailVerified: user.emailVerified, username: user.displayUsername ?? user.username },
      notice,
      hasPassword: withPassword,
      passwordBounds: passwordBounds(),
      showVerifyBanner: !user.emailVerified && emailVerificationEnabled(),
      changeEmail: env.AUTH_CHANGE_EMAIL === "on",
      deleteAccount: env.AUTH_DELETE_ACCOUNT,
      sessions: sessions.map((s) => ({
        id: s.id,
        current: s.id === session.id,
        device: describeDevice(s.userAgent),
        ipAddress: s.ipAddress,
        lastActiveAt: s.updatedAt.toISOString(),
      })),
    },
    { headers: ctx.responseHeaders },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const outcome = await runAccountAction(request, context);
  if (outcome.kind === "redirect") throw redirect(outcome.location, { headers: outcome.headers });
  return data(outcome.body, { status: outcome.status, headers: outcome.headers });
}

const formatTime = (iso: string) => new Date(iso).toISOString().replace("T", " ").slice(0, 16) + " UTC";

export default function Account() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const { user, sessions } = page;
  return (
    <>
      {page.showVerifyBanner ? <VerifyEmailBanner email={user.email} last={last} /> : null}
      <section>
        <h1>Your account</h1>
        {page.notice && !last ? (
          <p className="notice" role="status">
            {page.notice}
          </p>
        ) : null}
        <p>
          <strong data-testid="account-name">{user.name}</strong>
          <br />
          <span data-testid="account-email">{user.email}</span>
          {user.emailVerified ? <span className="muted"> · verified</span> : null}
        </p>
        <Form method="post">
          <SubmitButton name="intent" value="sign-out">
            Sign out
          </SubmitButton>
        </Form>
      </section>
      <section aria-labelledby="sessions-heading">
        <h2 id="sessions-heading">Sessions</h2>
        {last?.intent === "revoke-session" && last.error ? <ErrorList errors={[last.error]} /> : null}
        <ul className="sessions">
          {sessions.map((s) => (
            <li key={s.id} data-testid="session-row">
              <div>
                <div>
                  {s.device}
                  {s.current ? <strong> · this device</strong> : null}
                </div>
                <div className="muted">
                  {s.ipAddress ? `${s.ipAddress} · ` : ""}last active {formatTime(s.lastActiveAt)}
                </div>
              </div>
              {s.current ? null : (
                <Form method="post" className="inline">
                  <input type="hidden" name="sessionId" value={s.id} />
                  <button type="submit" name="intent" value="revoke-session" className="secondary">
                    Revoke
                  </button>
                </Form>
              )}
            </li>
          ))}
        </ul>
      </section>
      <ProfileSection name={user.name} image={user.image} username={user.username} last={last} />
      {page.changeEmail ? <ChangeEmailSection email={user.email} last={last} /> : null}
      {page.hasPassword ? (
        <ChangePasswordSection bounds={page.passwordBounds} last={last} />
      ) : (
        <SetPasswordSection bounds={page.passwordBounds} last={last} />
      )}
      {page.deleteAccount !== "off" ? (
        <DeleteAccountSection mode={page.deleteAccount} hasPassword={page.hasPassword} last={last} />
      ) : null}
    </>
  );
}
