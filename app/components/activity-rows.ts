// The activity page's runs (issue 41): the same failed sign-in one after another — "Wrong password entered", from
// the same device and address — becomes one row that says how many and when ("18 times between 23:48 and 23:49
// UTC"), so one guessing burst does not fill the page. Worked out on the server, on the rows already in words.

/** What grouping reads of a row: its words, whether it is a failed sign-in, and its time (ISO, newest first). */
interface GroupableRow {
  what: string;
  where: string;
  failed: boolean;
  at: string;
}

/** A row, or a run of them: `times` events, `span` saying when (null for a single event). */
export type Grouped<R> = R & { times: number; span: string | null };

const HOUR_MINUTE = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" });
const DAY_HOUR_MINUTE = new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone: "UTC" });

/** "18 times between 23:48 and 23:49 UTC"; the dates too when the run crosses midnight (UTC); "at" within a minute. */
export function runWords(times: number, first: Date, last: Date): string {
  const sameDay = first.toISOString().slice(0, 10) === last.toISOString().slice(0, 10);
  const format = sameDay ? HOUR_MINUTE : DAY_HOUR_MINUTE;
  const [from, to] = [format.format(first), format.format(last)];
  return from === to ? `${times} times at ${to} UTC` : `${times} times between ${from} and ${to} UTC`;
}

/** Rows newest first, consecutive identical failed sign-ins joined into the latest of them. */
export function groupFailedRuns<R extends GroupableRow>(rows: R[]): Grouped<R>[] {
  const grouped: Grouped<R>[] = [];
  for (const row of rows) {
    const previous = grouped[grouped.length - 1];
    if (previous && row.failed && previous.failed && previous.what === row.what && previous.where === row.where) {
      // Newest first: each row joined is the run's earliest so far; the run keeps its latest row's time.
      previous.times += 1;
      previous.span = runWords(previous.times, new Date(row.at), new Date(previous.at));
      continue;
    }
    grouped.push({ ...row, times: 1, span: null });
  }
  return grouped;
}
