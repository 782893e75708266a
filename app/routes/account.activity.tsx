// /account/activity: what happened to the account lately, newest first, in words for people, a page at a time
// ("Older" is a plain link, so it works without JavaScript); and "This wasn't me — sign out everywhere", whose
// question is a page of its own (`?confirm`, or `?confirm=<event id>` from a sign-in row's "Not you?"): titled and
// focused so it is seen where the person is (issue 41), after which the person is signed out
// (docs/decisions/048-security-events.md). The sentences are made from the catalogs in the reader's language.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { hasPassword } from "~/auth/account/password-flows.server";
import { AuthError } from "~/auth/errors";
import { DEFAULT_EVENTS_PAGE, findOwnSecurityEvent, listSecurityEvents, securityEventsPosition, type SecurityEventView } from "~/auth/security-events/events.server";
import { eventSentence } from "~/auth/security-events/sentences";
import { FlashMessage } from "~/components/account-sections";
import { groupFailedRuns, runWords } from "~/components/activity-rows";
import { EventOrigin, EventWords, eventWordsText } from "~/components/event-sentence";
import { KeptWhileActingLine, useActingAsSomeone } from "~/components/kept-while-acting";
import { ErrorSummary } from "~/components/forms";
import { titleTranslator, withErrorTitle } from "~/components/page-title";
import { Pager } from "~/components/pager";
import { NotYouLink, SignOutEverywhereOffer, SignOutEverywhereQuestion } from "~/components/sign-out-everywhere";
import { env } from "~/env.server";
import { accountAction } from "~/http/account-actions.server";
import { loadAccountPage } from "~/http/account-page.server";
import { useT } from "~/i18n/react";

// The question's page says so in its title: the first thing a screen reader reads, and the tab's label.
export const meta = withErrorTitle(({ data, matches }) => [
  { title: `${titleTranslator(matches).t((data as { confirming?: boolean } | undefined)?.confirming ? "notMe.question" : "activity.title")} · Latchkey` },
]);

const HERE = "/account/activity";

/** An event as the page shows it: its sentence and origin (said in the reader's language), and its moment. */
function rowOf(event: SecurityEventView, now: Date) {
  const sentence = eventSentence(event.type, event.details);
  const origin = { byAdministrator: event.byAdministrator, device: event.device, ipAddress: event.ipAddress };
  return {
    id: event.id,
    sentence,
    origin,
    // Two failed sign-ins are "the same" when they say the same from the same place (a run, below).
    same: JSON.stringify([sentence, origin]),
    at: event.createdAt.toISOString(),
    now: now.toISOString(),
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
      events: groupFailedRuns(shown.events.map((event) => rowOf(event, now))).map(({ same: _same, ...row }) => row),
    };
  });
}

export const action = (args: ActionFunctionArgs) => accountAction(args);

export default function AccountActivity() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const t = useT();
  // The owner's alarm is not an acting admin's to press (impersonation-guard.server.ts would refuse it).
  const acting = useActingAsSomeone();
  const keptLine = <KeptWhileActingLine kept={`"This wasn't me" can't be used`} />;
  if (page.confirming) {
    return acting ? (
      <section aria-labelledby="activity-heading">
        <h1 id="activity-heading">{t.t("activity.title")}</h1>
        {keptLine}
      </section>
    ) : (
      <>
        {last?.error ? <ErrorSummary errors={[last.error]} /> : null}
        <SignOutEverywhereQuestion here={HERE} hasPassword={page.hasPassword} doubted={page.doubted} />
      </>
    );
  }
  const hidden = { hidden: (chunks: ReactNode[]) => <span className="visually-hidden">{chunks}</span> };
  return (
    <>
      <section aria-labelledby="activity-heading">
        <h1 id="activity-heading">{t.t("activity.title")}</h1>
        <FlashMessage flash={page.flash} />
        {last?.error ? <ErrorSummary errors={[last.error]} /> : null}
        <p className="muted">{t.t("activity.lead", { days: page.days })}</p>
        {page.events.length === 0 ? (
          <p>{t.t(page.paged ? "activity.noOlder" : "activity.nothingYet")}</p>
        ) : (
          <ol className="activity">
            {page.events.map((event) => {
              const at = new Date(event.at);
              const when = t.relative(at, new Date(event.now));
              return (
                <li key={event.id} data-testid="activity-row" className={event.failed ? "failed" : undefined}>
                  <span className="activity-what">
                    <EventWords sentence={event.sentence} />
                  </span>
                  {event.span ? <span className="activity-run"> — {runWords(t, event.span)}</span> : null}
                  {/* Not a success to celebrate: a quiet mark, read as "…, from a new device". */}
                  {event.newDevice ? (
                    <>
                      {" "}
                      <span className="tag caution">{t.rich("activity.newDevice", {}, hidden)}</span>
                    </>
                  ) : null}
                  <span className="muted">
                    <EventOrigin sentence={event.sentence} origin={event.origin} /> —{" "}
                    <time dateTime={event.at} title={t.dateTime(at)}>
                      {when}
                    </time>
                  </span>
                  {event.signIn && !acting ? (
                    <>
                      {" "}
                      <NotYouLink here={HERE} eventId={event.id} row={t.t("notMe.row", { what: eventWordsText(t, event.sentence), when })} />
                    </>
                  ) : null}
                </li>
              );
            })}
          </ol>
        )}
        <Pager noun="events" at={page.at} previous={page.newer} next={page.older} order="newest-first" headingId="activity-heading" testId="events-shown" />
      </section>
      {acting ? keptLine : <SignOutEverywhereOffer here={HERE} />}
    </>
  );
}
