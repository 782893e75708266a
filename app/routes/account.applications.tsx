// /account/applications: the applications this person allowed to use their account (through "Sign in with
// Latchkey"): when they were allowed and last used, what they may do, and "Revoke access", which forgets the
// consent and ends every token the application holds. Revoking asks first (`?revoke=<clientId>`: a link, then a
// form), so it works without JavaScript like the other confirmation steps.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import { z } from "zod";
import { listApplications, revokeApplication } from "~/auth/oidc-provider/consent.server";
import { describeScopes } from "~/auth/oidc-provider/scopes";
import { FlashMessage } from "~/components/account-sections";
import { ErrorSummary, SubmitButton } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { relativeTime, utcTime } from "~/components/time";
import { loadAccountPage } from "~/http/account-page.server";
import { answerIntent, goTo, intent, pageAction } from "~/http/page-action.server";
import { useT } from "~/i18n/react";

export const meta = pageTitle("apps.title");

const HERE = "/account/applications";

/** A moment as the page shows it: words people read, the exact UTC time on hover and for <time>. */
const moment = (date: Date, now: Date) => ({ at: date.toISOString(), words: relativeTime(date, now), utc: utcTime(date), now: now.toISOString() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadAccountPage(request, context, async ({ user }) => {
    const now = new Date();
    const applications = (await listApplications(user.id)).map((app) => ({
      clientId: app.clientId,
      name: app.name,
      allowed: describeScopes(app.scopes),
      allowedAt: moment(app.allowedAt, now),
      lastUsedAt: app.lastUsedAt ? moment(app.lastUsedAt, now) : null,
    }));
    const revoking = new URL(request.url).searchParams.get("revoke");
    return {
      applications,
      confirm: revoking ? (applications.find((app) => app.clientId === revoking) ?? null) : null,
      /** ?revoke= named an application not (or no longer) allowed: revoked meanwhile, or a made-up id. */
      confirmGone: revoking !== null && !applications.some((app) => app.clientId === revoking),
    };
  });
}

export async function action(args: ActionFunctionArgs) {
  const outcome = await pageAction(args, {
    "revoke-application": intent({
      schema: z.object({ clientId: z.string().min(1).max(64), name: z.string().max(200).optional() }),
      rateLimitAs: "/oauth2/revoke-access",
      session: "required",
      refusalShown: "page",
      run: async (value, current, ctx) => {
        await revokeApplication(ctx, current.user.id, value.clientId);
        return goTo(HERE, value.name ? `${value.name} can no longer use your account.` : "Access revoked.");
      },
    }),
  });
  return answerIntent(outcome);
}

type PageData = ReturnType<typeof useLoaderData<typeof loader>>;

export default function AccountApplications() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const { t, said } = useT();
  return (
    <section aria-labelledby="applications-heading">
      <h1 id="applications-heading">{t("apps.title")}</h1>
      <FlashMessage flash={page.flash} />
      {last?.error ? <ErrorSummary errors={[last.error]} /> : null}
      <p className="muted">{t("apps.lead")}</p>
      {page.confirm ? <ConfirmRevoke app={page.confirm} /> : null}
      {page.confirmGone ? <p role="status">{t("apps.gone")}</p> : null}
      {page.applications.length === 0 ? (
        <p>{t("apps.none")}</p>
      ) : (
        <ul className="sessions applications">
          {page.applications.map((app) => (
            <li key={app.clientId} data-testid="application-row">
              <div>
                <strong>
                  <bdi>{app.name}</bdi>
                </strong>
                <div className="muted">
                  <When moment={app.allowedAt} message="apps.allowed" />
                  {" · "}
                  {app.lastUsedAt ? <When moment={app.lastUsedAt} message="apps.lastUsed" /> : t("apps.notUsed")}
                </div>
                <ul className="scopes" aria-label={t("apps.scopesLabel", { name: app.name })}>
                  {app.allowed.map((words) => (
                    <li key={words}>{said(words)}</li>
                  ))}
                </ul>
              </div>
              <Link to={`${HERE}?${new URLSearchParams({ revoke: app.clientId })}`} className="button-link secondary" aria-label={t("apps.revokeLabel", { name: app.name })}>
                {t("apps.revoke")}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** "Allowed 5 minutes ago": relative words from the page's own moment, the full date and time in the title. */
function When({ moment: m, message }: { moment: { at: string; now: string }; message: string }) {
  const { rich, relative, dateTime } = useT();
  const at = new Date(m.at);
  return (
    <>
      {rich(message, { when: relative(at, new Date(m.now)) }, {
        time: (chunks) => (
          <time dateTime={m.at} title={dateTime(at)}>
            {chunks}
          </time>
        ),
      })}
    </>
  );
}

/** The question before revoking, focused when it appears so it is read; posted to the page without `?revoke=`. */
function ConfirmRevoke({ app }: { app: NonNullable<PageData["confirm"]> }) {
  // React's autoFocus moves focus only to form controls; the question is a group, focused once it is shown.
  const question = useRef<HTMLDivElement>(null);
  useEffect(() => question.current?.focus(), [app.clientId]);
  const { t, rich } = useT();
  const bdi = { bdi: (chunks: ReactNode[]) => <bdi>{chunks}</bdi> };
  return (
    <div className="confirm banner" role="group" aria-labelledby="revoke-question" tabIndex={-1} ref={question}>
      <p id="revoke-question">
        <strong>{rich("apps.confirmQuestion", { name: app.name }, bdi)}</strong>
      </p>
      <p>{rich("apps.confirmText", { name: app.name }, bdi)}</p>
      <Form method="post" action={HERE} className="row-actions">
        <input type="hidden" name="clientId" value={app.clientId} />
        <input type="hidden" name="name" value={app.name} />
        <SubmitButton name="intent" value="revoke-application" className="danger">
          {t("apps.yesRevoke")}
        </SubmitButton>
        <Link to={HERE} className="button-link secondary">
          {t("apps.cancel")}
        </Link>
      </Form>
    </div>
  );
}
