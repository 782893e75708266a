// A moment as the other pages show it: in words in the reader's language ("3 days ago", "vor 3 Tagen"), the full
// date and time (UTC) on hover and in <time> for assistive technology. The loader hands down the moment and its
// own "now", so the words are worked out the same on the server and in the hydrating browser.
import type { ReactNode } from "react";
import { useT } from "~/i18n/react";

export interface WhenData {
  iso: string;
  now: string;
}

export const whenOf = (date: Date, now: Date = new Date()): WhenData => ({ iso: date.toISOString(), now: now.toISOString() });

/** `message`, when given, places the moment in a sentence: "created <time>{when}</time>". */
export function When({ at, message }: { at: WhenData; message?: string }) {
  const t = useT();
  const date = new Date(at.iso);
  const when = t.relative(date, new Date(at.now));
  const time = (chunks: ReactNode[]) => (
    <time dateTime={at.iso} title={t.dateTime(date)}>
      {chunks}
    </time>
  );
  return message ? <>{t.rich(message, { when }, { time })}</> : time([when]);
}
