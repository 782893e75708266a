// /account/sessions: where you are signed in, this device first, each other one with its own Revoke button.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { listSessions } from "~/auth/session/own-sessions.server";
import { FlashMessage } from "~/components/account-sections";
import { ErrorSummary, SubmitButton } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { SessionRow, sessionRow } from "~/components/session-list";
import { accountAction } from "~/http/account-actions.server";
import { loadAccountPage } from "~/http/account-page.server";
import { useT } from "~/i18n/react";

export const meta = pageTitle("sessions.title");

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadAccountPage(request, context, async ({ user, session }) => {
    const now = new Date();
    const sessions = (await listSessions(user.id)).map((s) => sessionRow(s, now, session.id));
    // This device first, then the others by last activity (the list already comes newest first).
    sessions.sort((a, b) => Number(b.current) - Number(a.current));
    return { sessions };
  });
}

export const action = (args: ActionFunctionArgs) => accountAction(args);

export default function AccountSessions() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const { t } = useT();
  return (
    <>
      <section aria-labelledby="sessions-heading">
        <h1 id="sessions-heading">{t("sessions.title")}</h1>
        <FlashMessage flash={page.flash} />
        {last?.error ? <ErrorSummary errors={[last.error]} /> : null}
        <p className="muted">{t("sessions.lead")}</p>
        <ul className="sessions">
          {page.sessions.map((s) => (
            <SessionRow key={s.id} session={s} testId="session-row" />
          ))}
        </ul>
        {page.sessions.some((s) => !s.current) ? (
          <Form method="post" className="sign-out-others">
            <SubmitButton name="intent" value="revoke-other-sessions" className="secondary">
              {t("sessions.signOutOthers")}
            </SubmitButton>
          </Form>
        ) : (
          <p className="muted">{t("sessions.onlyThis")}</p>
        )}
      </section>
    </>
  );
}
