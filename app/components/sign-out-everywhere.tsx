// "This wasn't me — sign out everywhere" on /account/activity (ADR 048, issue 41): the offer below the list, and
// the question on a page of its own (`?confirm`, or `?confirm=<event id>` from a row's "Not you?"). The question
// is the page's first heading, focused when it appears (autofocus: without JavaScript too), so a frightened
// person pressing the button sees and hears the answer where they are, on a phone as on a desktop.
import { Form, Link } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { SubmitButton } from "~/components/forms";

export const SIGN_OUT_EVERYWHERE_QUESTION = "Sign out everywhere?";

/**
 * The question's id, in the links' fragment: the browser (or, with JavaScript, Remix's scroll restoration) puts
 * the question at the top of the screen, so its answer fits below it on a phone.
 */
const QUESTION_ID = "not-me-heading";

/** The sign-in a row's "Not you?" came from, in the page's own words. */
export interface DoubtedSignIn {
  what: string;
  where: string;
  when: string;
  at: string;
}

export function SignOutEverywhereQuestion({ here, hasPassword, doubted }: { here: string; hasPassword: boolean; doubted: DoubtedSignIn | null }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // React focuses only form controls for autoFocus: after a client-side move the heading is focused here.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby={QUESTION_ID} className="not-me-question">
      <h1 id={QUESTION_ID} ref={heading} tabIndex={-1} autoFocus>
        {SIGN_OUT_EVERYWHERE_QUESTION}
      </h1>
      {doubted ? (
        <p>
          You said this sign-in was not you: <strong>{doubted.what}</strong>
          {doubted.where ? ` — ${doubted.where}` : ""} — <time dateTime={doubted.at}>{doubted.when}</time>.
        </p>
      ) : (
        <p>If a sign-in or a change to your account was not you, end every way someone else may be using it now.</p>
      )}
      <p className="warning">
        <strong>
          This signs out every device signed in to your account, this one too, and forgets the devices you signed in from.
          {hasPassword ? " We will email you a link to choose a new password." : ""}
        </strong>
      </p>
      {/* Posted to the page without `?confirm`, so the answer (or its refusal) does not ask again. */}
      <Form method="post" action={here} className="row-actions">
        <SubmitButton name="intent" value="end-all-sessions" className="danger">
          Yes, sign out everywhere
        </SubmitButton>
        <Link to={here} className="button-link secondary">
          Cancel
        </Link>
      </Form>
    </section>
  );
}

/** Below the list: the way to the question. */
export function SignOutEverywhereOffer({ here }: { here: string }) {
  return (
    <section aria-labelledby="not-me-offer" className="not-me">
      <h2 id="not-me-offer">Something you don't recognise?</h2>
      <p>If you see a sign-in or a change that was not you, sign out everywhere at once. You will be asked to confirm.</p>
      <p>
        <Link to={`${here}?confirm#${QUESTION_ID}`} className="button-link danger">
          This wasn't me — sign out everywhere
        </Link>
      </p>
    </section>
  );
}

/** Beside a sign-in row, as Google does: the same question, naming that sign-in. */
export function NotYouLink({ here, eventId, row }: { here: string; eventId: string; row: string }) {
  return (
    <Link to={`${here}?${new URLSearchParams({ confirm: eventId })}#${QUESTION_ID}`} className="not-you">
      Not you?<span className="visually-hidden"> {row}</span>
    </Link>
  );
}
