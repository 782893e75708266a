// Pages of a long list as plain links (no JavaScript needed), in one pattern everywhere (ADR 066): where the rows
// shown sit in the whole list ("Events 21–40 of 52"), and links to the pages before and after — "Newer" and
// "Older" for a list newest first, "Previous" and "Next" for any other order. With JavaScript on, following one
// moves focus to the list's heading, so the new page is read from its top instead of focus falling to <body>.
import { Link, useLocation, useNavigationType } from "@remix-run/react";
import { useEffect } from "react";
import type { PageAt } from "~/auth/schemas";

/** `?<name>=2`: which page to show (from 1); anything else shows the first. */
export function pageNumberOf(request: Request, name: string): number {
  const asked = Number(new URL(request.url).searchParams.get(name));
  return Number.isInteger(asked) && asked >= 1 && asked <= 100_000 ? asked : 1;
}

/** Where the rows shown sit: the first one's position (from 1), how many, of how many (or of more than). */
export interface ListPosition {
  first: number;
  shown: number;
  total: number;
  /** False when `total` is a floor the list was counted up to ("of more than 10,000"). */
  totalIsExact?: boolean;
}

/** The links of a list paged by number (`?page=2`): none before the first page, none after the last. */
export function numberedPages(at: PageAt, href: (page: number) => string): { previous: string | null; next: string | null } {
  return { previous: at.page > 1 ? href(Math.min(at.page - 1, at.pages)) : null, next: at.page < at.pages ? href(at.page + 1) : null };
}

/** The words of the two links: the list's order decides them, the rest of the pattern is the same. */
const WORDS = {
  "newest-first": { previous: "Newer", next: "Older", hidden: (noun: string) => ` ${noun}` },
  "in-order": { previous: "Previous", next: "Next", hidden: (noun: string) => ` page of ${noun}` },
} as const;

/** The state a pager link carries: which heading to focus when the new page has loaded. */
type PagedState = { focusHeading?: string } | null;

export function positionWords(noun: string, at: ListPosition): string {
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  const n = (value: number) => value.toLocaleString("en");
  const total = at.totalIsExact === false ? `more than ${n(at.total)}` : n(at.total);
  return at.shown > 0 ? `${Noun} ${n(at.first)}–${n(at.first + at.shown - 1)} of ${total}` : `No ${noun} on this page; there are ${total}.`;
}

/**
 * Nothing when everything fits on one page. `noun` is plural and lower case ("members"); `headingId` names the
 * list's heading, focused after a pager link is followed — not on a first load.
 */
export function Pager({
  noun,
  at,
  previous,
  next,
  order = "in-order",
  headingId,
  testId,
}: {
  noun: string;
  at: ListPosition;
  previous: string | null;
  next: string | null;
  order?: keyof typeof WORDS;
  headingId: string;
  testId?: string;
}) {
  useFocusHeadingAfterPaging(headingId);
  if (!previous && !next) return null;
  const words = WORDS[order];
  const state: PagedState = { focusHeading: headingId };
  return (
    <nav aria-label={`Pages of ${noun}`} className="pager">
      <p className="muted" data-testid={testId}>
        {positionWords(noun, at)}
      </p>
      <p className="pager-links">
        {previous ? (
          <Link to={previous} rel="prev" state={state}>
            {words.previous}
            <span className="visually-hidden">{words.hidden(noun)}</span>
          </Link>
        ) : null}
        {next ? (
          <Link to={next} rel="next" state={state}>
            {words.next}
            <span className="visually-hidden">{words.hidden(noun)}</span>
          </Link>
        ) : null}
      </p>
    </nav>
  );
}

/**
 * After a client-side navigation by a pager link (a PUSH carrying its state), the list's heading takes focus. A
 * first load, a reload or Back is a POP, which keeps the browser's own focus and scroll.
 */
function useFocusHeadingAfterPaging(headingId: string) {
  const location = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType !== "PUSH" || (location.state as PagedState)?.focusHeading !== headingId) return;
    const heading = document.getElementById(headingId);
    // A heading is not focusable by itself: -1 lets a script focus it without adding it to the Tab order.
    if (heading && !heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
    heading?.focus();
  }, [location.key, navigationType, headingId, location.state]);
}
