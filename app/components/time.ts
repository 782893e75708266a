// Times for people: "just now", "5 minutes ago", "yesterday", "3 days ago", then the date. Worked out by the
// server when the page is made (so the browser hydrates the same words); the exact UTC time is kept for a title.
const MINUTE = 60;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"} ago`;

export function relativeTime(then: Date, now: Date = new Date()): string {
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  if (seconds < 45) return "just now";
  if (seconds < HOUR) return plural(Math.max(1, Math.round(seconds / MINUTE)), "minute");
  if (seconds < DAY) return plural(Math.round(seconds / HOUR), "hour");
  if (seconds < 2 * DAY) return "yesterday";
  if (seconds < 30 * DAY) return plural(Math.round(seconds / DAY), "day");
  return `on ${then.toISOString().slice(0, 10)}`;
}

/** "2026-11-23 10:58 UTC": the exact time, shown on hover and read by assistive technology via <time>. */
export const utcTime = (date: Date) => `${date.toISOString().replace("T", " ").slice(0, 16)} UTC`;
