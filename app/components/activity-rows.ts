// The activity page's runs (issue 41): the same failed sign-in one after another — "Wrong password entered", from
// the same device and address — becomes one row that says how many and when ("18 times between 23:48 and 23:49
// UTC"), so one guessing burst does not fill the page. Grouped on the server; said in the reader's language.
import { formattingLocale, type Translator } from "~/i18n/format";

/** What grouping reads of a row: what makes two rows the same, whether it is a failed sign-in, its time (ISO). */
interface GroupableRow {
  same: string;
  failed: boolean;
  at: string;
}

/** A run of `times` events, from its earliest to its latest (ISO). */
export interface RunSpan {
  times: number;
  first: string;
  last: string;
}

/** A row, or a run of them: `span` says how many and when (null for a single event). */
export type Grouped<R> = R & { span: RunSpan | null };

const HOUR_MINUTE = { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" } as const;
const DAY_HOUR_MINUTE = { day: "numeric", month: "long", ...HOUR_MINUTE } as const;

/** "18 times between 23:48 and 23:49 UTC"; the dates too when the run crosses midnight (UTC); "at" within a minute. */
export function runWords(t: Translator, span: RunSpan): string {
  const [first, last] = [new Date(span.first), new Date(span.last)];
  const sameDay = span.first.slice(0, 10) === span.last.slice(0, 10);
  const format = new Intl.DateTimeFormat(formattingLocale(t.lang), sameDay ? HOUR_MINUTE : DAY_HOUR_MINUTE);
  const [from, to] = [format.format(first), format.format(last)];
  return from === to ? t.t("activity.runAt", { times: span.times, to }) : t.t("activity.runBetween", { times: span.times, from, to });
}

/** Rows newest first, consecutive identical failed sign-ins joined into the latest of them. */
export function groupFailedRuns<R extends GroupableRow>(rows: R[]): Grouped<R>[] {
  const grouped: Grouped<R>[] = [];
  for (const row of rows) {
    const previous = grouped[grouped.length - 1];
    if (previous && row.failed && previous.failed && previous.same === row.same) {
      // Newest first: each row joined is the run's earliest so far; the run keeps its latest row's time.
      previous.span = { times: (previous.span?.times ?? 1) + 1, first: row.at, last: previous.at };
      continue;
    }
    grouped.push({ ...row, span: null });
  }
  return grouped;
}
