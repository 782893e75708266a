// /account/activity: what happened to the account lately, newest first, in words for people, a page at a time
// ("Older" is a plain link, so it works without JavaScript); and "This wasn't me — sign out everywhere", whose
// question is a page of its own (`?confirm`, or `?confirm=<event id>` from a sign-in row's "Not you?"): titled and
// focused so it is seen where the person is (issue 41), after which the person is signed out
// (docs/decisions/048-security-events.md).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { hasPassword } from "~/auth/account/password-flows.server";
import { AuthError } from "~/auth/errors";
import { DEFAULT_EVENTS_PAGE, findOwnSecurityEvent, listSecurityEvents, securityEventsPosition, type SecurityEventView } from "~/auth/security-events/events.server";
import { describeEvent, eventOrigin } from "~/auth/security-events/words";
import { FlashMessage } from "~/components/account-sections";
import { KeptWhileActingLine, useActingAsSomeone } from "~/components/kept-while-acting";
import { groupFailedRuns } from "~/components/activity-rows";
import { ErrorSummary } from "~/components/forms";
import { withErrorTitle } from "~/components/page-title";
import { Pager } from "~/components/pager";
import { NotYouLink, SIGN_OUT_EVERYWHERE_QUESTION, SignOutEverywhereOffer, SignOutEverywhereQuestion } from "~/components/sign-out-everywhere";
import { relativeTime, utcTime } from "~/components/time";
import { env } from "~/env.server";
import { accountAction } from "~/http/account-actions.server";
import { loadAccountPage } from "~/http/account-page.server";

// The question's page says so in its title: the first thing a screen reader reads, and the tab's label.
export const meta = withErrorTitle(({ data }) => [
  { title: `${(data as { confirming?: boolean } | undefined)?.confirming ? SIGN_OUT_EVERYWHERE_QUESTION : "Activity"} · Latchkey` },
]);

const HERE = "/account/activity";

/** An event in the page's words. */
function rowOf(event: SecurityEventView, now: Date) {
  const what = describeEvent(event.type, event.details);
  return {
    id: event.id,
    what,
    where: eventOrigin(event, what),
    when: relativeTime(event.createdAt, now),
    at: event.createdAt.toISOString(),
    atUtc: utcTime(event.createdAt),
    newDevice: event.type === "sign_in" && event.details.newDevice === true,
    failed: event.type === "sign_in_failed",
    // "Not you?" beside the owner's own sign-ins (an administrator's acts are not the owner's to doubt).
    signIn: event.type === "sign_in" && !event.byAdministrator,
  };
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadAccountPage(request, context, async ({ user }) => {
    const url = new URL(request.url);
    const now = new Date();
    const base = { hasPassword: await hasPassword(user.id), days: env.AUTH_SECURITY_EVENT_DAYS };
    if (url.searchParams.has("confirm")) {
      // The question alone: nothing above it to scroll past. A row's link names the sign-in it doubts.
      const eventId = url.searchParams.get("confirm");
      const doubted = eventId ? await findOwnSecurityEvent(user.id, eventId) : null;
      const row = doubted ? rowOf(doubted, now) : null;
      return { ...base, confirming: true as const, doubted: row, events: [], older: null, paged: false };
    }
    const cursor = url.searchParams.get("cursor");
    // A cut or edited "Older" link starts again at the newest events instead of failing.
    const page = await listSecurityEvents(user.id, { limit: DEFAULT_EVENTS_PAGE, cursor }).catch((error) => {
      if (error instanceof AuthError && error.code === "INVALID_CURSOR") return null;
      throw error;
    });
    const shown = page ?? (await listSecurityEvents(user.id, { limit: DEFAULT_EVENTS_PAGE }));
    // Where the page sits ("Events 21–40 of 52") and the page before it, for the one pager (ADR 066).
    const position = await securityEventsPosition(user.id, page ? cursor : null);
    const pageAt = (next: string | null) => (next ? `${HERE}?${new URLSearchParams({ cursor: next })}` : HERE);
    return {
      ...base,
      confirming: false as const,
      doubted: null,
      older: shown.nextCursor ? pageAt(shown.nextCursor) : null,
      newer: cursor && page ? pageAt(position.newerCursor) : null,
      at: { first: position.before + 1, shown: shown.events.length, total: position.total },
      paged: Boolean(cursor) && page !== null,
      // A burst of the same wrong password is one row that says how many and when (issue 41).
      events: groupFailedRuns(shown.events.map((event) => rowOf(event, now))),
    };
  });
}

export const action = (args: ActionFunctionArgs) => accountAction(args);

export default function AccountActivity() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  // The owner's alarm is not an acting admin's to press (impersonation-guard.server.ts would refuse it).
  const acting = useActingAsSomeone();
  const keptLine = <KeptWhileActingLine kept={`"This wasn't me" can't be used`} />;
  if (page.confirming) {
    return acting ? (
      <section aria-labelledby="activity-heading">
        <h1 id="activity-heading">Activity</h1>
        {keptLine}
      </section>
    ) : (
      <>
        {last?.error ? <ErrorSummary errors={[last.error]} /> : null}
        <SignOutEverywhereQuestion here={HERE} hasPassword={page.hasPassword} doubted={page.doubted} />
      </>
    );
  }
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
                {event.span ? <span className="activity-run"> — {event.span}</span> : null}
                {/* Not a success to celebrate: a quiet mark, read as "…, from a new device". */}
                {event.newDevice ? (
                  <>
                    {" "}
                    <span className="tag caution">
                      <span className="visually-hidden">, from a </span>New device
                    </span>
                  </>
                ) : null}
                <span className="muted">
                  {event.where ? ` — ${event.where}` : ""} — <time dateTime={event.at} title={event.atUtc}>{event.when}</time>
                </span>
                {event.signIn && !acting ? (
                  <>
                    {" "}
                    <NotYouLink here={HERE} eventId={event.id} row={`${event.what}, ${event.when}`} />
                  </>
                ) : null}
              </li>
            ))}
          </ol>
        )}
        <Pager noun="events" at={page.at} previous={page.newer} next={page.older} order="newest-first" headingId="activity-heading" testId="events-shown" />
      </section>
      {acting ? keptLine : <SignOutEverywhereOffer here={HERE} />}
    </>
  );
}
