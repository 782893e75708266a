// Pieces of the organization pages: the confirmation step before what cannot be taken back, a button-only form's
// refusal, and an invitation's expiry in the reader's words.
import { Form, Link, useLocation, useSearchParams } from "@remix-run/react";
import type { ReactNode } from "react";
import { ConfirmQuestion } from "~/components/confirm-question";
import { ErrorSummary, SubmitButton } from "~/components/forms";
import type { IntentResult } from "~/http/organization-actions.server";
import { daysBetween, formattingLocale, type Translator } from "~/i18n/format";
import { useT } from "~/i18n/react";

/** The question before a step that cannot be taken back (`?confirm=`): a link there, then a form that does it. */
export function useConfirming() {
  const [params] = useSearchParams();
  return { what: params.get("confirm"), memberId: params.get("member") };
}

/**
 * A confirmation step that works without JavaScript: the first button is a link to this page with `?confirm=`,
 * which shows the question, the button that does it, and a way back. Focused when it appears (with JavaScript, a
 * client navigation: ConfirmQuestion moves the focus and scrolls its buttons into view), so it is read.
 */
export function Confirm({ question, children, action, intent: name, hidden }: { question: ReactNode; children?: ReactNode; action: string; intent: string; hidden?: Record<string, string> }) {
  const { pathname } = useLocation();
  const { t } = useT();
  return (
    <ConfirmQuestion className="confirm banner" labelledBy="confirm-question">
      <p id="confirm-question">
        <strong>{question}</strong>
      </p>
      {children}
      {/* Posted to the page without `?confirm=`, so the answer (or its refusal) does not ask again. */}
      <Form method="post" action={pathname} className="row-actions">
        <input type="hidden" name="intent" value={name} />
        {Object.entries(hidden ?? {}).map(([key, value]) => (
          <input key={key} type="hidden" name={key} value={value} />
        ))}
        <SubmitButton className="danger">{action}</SubmitButton>
        <Link to={pathname} className="button-link secondary">
          {t("orgs.cancel")}
        </Link>
      </Form>
    </ConfirmQuestion>
  );
}

/** A row-level or button-only form's refusal, in the section it came from (forms with fields show their own). */
export function Refusal({ last, intent: name, id }: { last?: IntentResult; intent: string; id?: string }) {
  return last?.intent === name && last.error ? <ErrorSummary id={id} errors={[last.error]} /> : null;
}

/**
 * When an invitation ends: "today, 28 November", "tomorrow, …", "in 3 days, on …" (the year only when it is not
 * this one), counted between calendar days in UTC from the page's moment, so server and browser say the same.
 */
export function expiryText(translator: Pick<Translator, "t" | "lang">, end: Date, now: Date): string {
  const sameYear = end.getUTCFullYear() === now.getUTCFullYear();
  const date = new Intl.DateTimeFormat(formattingLocale(translator.lang), { day: "numeric", month: "long", ...(sameYear ? {} : { year: "numeric" }), timeZone: "UTC" }).format(end);
  return translator.t("orgs.invitations.expiry", { days: Math.max(0, daysBetween(now, end)), date });
}

/** The expiry in a <time> keeping its ISO moment, titled with the full date and time. */
export function Expiry({ at, now }: { at: string; now: string }) {
  const translator = useT();
  const end = new Date(at);
  return (
    <time dateTime={at} title={translator.dateTime(end)}>
      {expiryText(translator, end, new Date(now))}
    </time>
  );
}
