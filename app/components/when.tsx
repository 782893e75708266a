// A moment as the other pages show it: in words ("3 days ago"), the exact UTC time on hover and in <time> for
// assistive technology. The words are worked out by the loader (time.ts), so the page hydrates to the same text.
import { relativeTime, utcTime } from "~/components/time";

export interface WhenData {
  words: string;
  iso: string;
  utc: string;
}

export const whenOf = (date: Date, now: Date = new Date()): WhenData => ({ words: relativeTime(date, now), iso: date.toISOString(), utc: utcTime(date) });

export function When({ at }: { at: WhenData }) {
  return (
    <time dateTime={at.iso} title={at.utc}>
      {at.words}
    </time>
  );
}
