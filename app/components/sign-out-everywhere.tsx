// "This wasn't me — sign out everywhere" on /account/activity (ADR 048, issue 41): the offer below the list, and
// the question on a page of its own (`?confirm`, or `?confirm=<event id>` from a row's "Not you?"). The question
// is the page's first heading, focused when it appears (autofocus: without JavaScript too), so a frightened
// person pressing the button sees and hears the answer where they are, on a phone as on a desktop.
import { Form, Link } from "@remix-run/react";
import { useEffect, useRef, type ReactNode } from "react";
import type { Sentence } from "~/auth/security-events/sentences";
import { EventOrigin, EventWords, type EventOriginData } from "~/components/event-sentence";
import { SubmitButton } from "~/components/forms";
import { useT } from "~/i18n/react";

/**
 * The question's id, in the links' fragment: the browser (or, with JavaScript, Remix's scroll restoration) puts
 * the question at the top of the screen, so its answer fits below it on a phone.
 */
const QUESTION_ID = "not-me-heading";

/** The sign-in a row's "Not you?" came from: its sentence, where it came from, when, and the page's moment. */
export interface DoubtedSignIn {
  sentence: Sentence;
  origin: EventOriginData;
  at: string;
  now: string;
}

export function SignOutEverywhereQuestion({ here, hasPassword, doubted }: { here: string; hasPassword: boolean; doubted: DoubtedSignIn | null }) {
  const t = useT();
  const heading = useRef<HTMLHeadingElement>(null);
  // React focuses only form controls for autoFocus: after a client-side move the heading is focused here.
  useEffect(() => heading.current?.focus(), []);
  const at = doubted ? new Date(doubted.at) : null;
  const parts = {
    what: (chunks: ReactNode[]) => (
      <strong>
        {chunks}
        {doubted ? <EventWords sentence={doubted.sentence} /> : null}
      </strong>
    ),
    where: (chunks: ReactNode[]) => (doubted ? <>{chunks}<EventOrigin sentence={doubted.sentence} origin={doubted.origin} /></> : chunks),
    time: (chunks: ReactNode[]) =>
      doubted && at ? (
        <time dateTime={doubted.at} title={t.dateTime(at)}>
          {chunks}
          {t.relative(at, new Date(doubted.now))}
        </time>
      ) : (
        chunks
      ),
  };
  return (
    <section aria-labelledby={QUESTION_ID} className="not-me-question">
      <h1 id={QUESTION_ID} ref={heading} tabIndex={-1} autoFocus>
        {t.t("notMe.question")}
      </h1>
      {/* The sentence, its origin and its moment are the page's own pieces, placed where the language puts them. */}
      <p>{doubted ? t.rich("notMe.doubted", {}, parts) : t.t("notMe.lead")}</p>
      <p className="warning">
        <strong>
          {t.t("notMe.warning")}
          {hasPassword ? ` ${t.t("notMe.resetLink")}` : ""}
        </strong>
      </p>
      {/* Posted to the page without `?confirm`, so the answer (or its refusal) does not ask again. */}
      <Form method="post" action={here} className="row-actions">
        <SubmitButton name="intent" value="end-all-sessions" className="danger">
          {t.t("notMe.confirm")}
        </SubmitButton>
        <Link to={here} className="button-link secondary">
          {t.t("notMe.cancel")}
        </Link>
      </Form>
    </section>
  );
}

/** Below the list: the way to the question. */
export function SignOutEverywhereOffer({ here }: { here: string }) {
  const t = useT();
  return (
    <section aria-labelledby="not-me-offer" className="not-me">
      <h2 id="not-me-offer">{t.t("notMe.offerTitle")}</h2>
      <p>{t.t("notMe.offerText")}</p>
      <p>
        <Link to={`${here}?confirm#${QUESTION_ID}`} className="button-link danger">
          {t.t("notMe.offerLink")}
        </Link>
      </p>
    </section>
  );
}

/** Beside a sign-in row, as Google does: the same question, naming that sign-in. */
export function NotYouLink({ here, eventId, row }: { here: string; eventId: string; row: string }) {
  const t = useT();
  return (
    <Link to={`${here}?${new URLSearchParams({ confirm: eventId })}#${QUESTION_ID}`} className="not-you">
      {t.t("notMe.notYou")}
      <span className="visually-hidden"> {row}</span>
    </Link>
  );
}
