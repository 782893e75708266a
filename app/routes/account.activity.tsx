// /account/activity: what happened to the account lately, newest first, in words for people, a page at a time
// ("Older" is a plain link, so it works without JavaScript); and "This wasn't me — sign out everywhere", behind a
// confirmation step of its own (a link to ?confirm, then a form), after which the person is signed out
// (docs/decisions/048-security-events.md).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { hasPassword } from "~/auth/account/password-flows.server";
import { AuthError } from "~/auth/errors";
import { DEFAULT_EVENTS_PAGE, listSecurityEvents } from "~/auth/security-events/events.server";
import { describeEvent, eventOrigin } from "~/auth/security-events/words";
import { FlashMessage } from "~/components/account-sections";
import { ErrorSummary, SubmitButton } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { relativeTime, utcTime } from "~/components/time";
import { env } from "~/env.server";
import { accountAction } from "~/http/account-actions.server";
import { loadAccountPage } from "~/http/account-page.server";

export const meta = pageTitle("Activity");

const HERE = "/account/activity";

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadAccountPage(request, context, async ({ user }) => {
    const url = new URL(request.url);
    const cursor = url.searchParams.get("cursor");
    // A cut or edited "Older" link starts again at the newest events instead of failing.
    const page = await listSecurityEvents(user.id, { limit: DEFAULT_EVENTS_PAGE, cursor }).catch((error) => {
      if (error instanceof AuthError && error.code === "INVALID_CURSOR") return null;
      throw error;
    });
    const shown = page ?? (await listSecurityEvents(user.id, { limit: DEFAULT_EVENTS_PAGE }));
    const now = new Date();
    return {
      confirming: url.searchParams.has("confirm"),
      hasPassword: await hasPassword(user.id),
      older: shown.nextCursor ? `${HERE}?${new URLSearchParams({ cursor: shown.nextCursor })}` : null,
      paged: Boolean(cursor) && page !== null,
      days: env.AUTH_SECURITY_EVENT_DAYS,
      events: shown.events.map((event) => ({
        id: event.id,
        what: describeEvent(event.type, event.details),
        where: eventOrigin(event, describeEvent(event.type, event.details)),
        when: relativeTime(event.createdAt, now),
        at: event.createdAt.toISOString(),
        atUtc: utcTime(event.createdAt),
        newDevice: event.type === "sign_in" && event.details.newDevice === true,
        failed: event.type === "sign_in_failed",
      })),
    };
  });
}

export const action = (args: ActionFunctionArgs) => accountAction(args);

export default function AccountActivity() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  return (
    <>
      <section aria-labelledby="activity-heading">
        <h1 id="activity-heading">Activity</h1>
        <FlashMessage flash={page.flash} />
        {last?.error ? <ErrorSummary errors={[last.error]} /> : null}
        <p className="muted">
          What happened to your account in the last {page.days} days, newest first: sign-ins, and changes to how you sign in.
        </p>
        {page.events.length === 0 ? (
          <p>{page.paged ? "No older activity." : "Nothing yet."}</p>
        ) : (
          <ol className="activity">
            {page.events.map((event) => (
              <li key={event.id} data-testid="activity-row" className={event.failed ? "failed" : undefined}>
                <span className="activity-what">{event.what}</span>
                {event.newDevice ? <> <strong className="tag">New device</strong></> : null}
                <span className="muted">
                  {event.where ? ` — ${event.where}` : ""} — <time dateTime={event.at} title={event.atUtc}>{event.when}</time>
                </span>
              </li>
            ))}
          </ol>
        )}
        {page.paged || page.older ? (
          <nav aria-label="Activity pages" className="activity-pages">
            {page.paged ? <Link to={HERE}>Newest</Link> : null}
            {page.older ? <Link to={page.older}>Older</Link> : null}
          </nav>
        ) : null}
      </section>
      <section aria-labelledby="not-me-heading" className="not-me">
        <h2 id="not-me-heading">Something you don't recognise?</h2>
        {page.confirming ? (
          <>
            <p className="warning">
              <strong>
                This signs out every device signed in to your account, this one too, and forgets the devices you signed in from.
                {page.hasPassword ? " We will email you a link to choose a new password." : ""}
              </strong>
            </p>
            <Form method="post" action={HERE} className="inline">
              <SubmitButton name="intent" value="end-all-sessions" className="danger">
                Yes, sign out everywhere
              </SubmitButton>
            </Form>{" "}
            <Link to={HERE}>Cancel</Link>
          </>
        ) : (
          <>
            <p>If you see a sign-in or a change that was not you, sign out everywhere at once. You will be asked to confirm.</p>
            <p>
              <Link to={`${HERE}?confirm`} className="button-link danger">
                This wasn't me — sign out everywhere
              </Link>
            </p>
          </>
        )}
      </section>
    </>
  );
}
