// Pages of a long list as plain links (no JavaScript needed), in one pattern everywhere (ADR 066): where the rows
// shown sit in the whole list ("Events 21–40 of 52"), and links to the pages before and after — "Newer" and
// "Older" for a list newest first, "Previous" and "Next" for any other order — in the reader's language. With JavaScript on, following one
// moves focus to the list's heading, so the new page is read from its top instead of focus falling to <body>.
import { Link, useLocation, useNavigationType } from "@remix-run/react";
import { useEffect, type ReactNode } from "react";
import type { PageAt } from "~/auth/schemas";
import type { Translator } from "~/i18n/format";
import { useT } from "~/i18n/react";

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

/** The lists paged: each noun as a heading starts ("Events") and within a sentence ("events"). */
const NOUNS = {
  events: { title: "pager.events.title", plain: "pager.events.plain" },
  accounts: { title: "pager.accounts.title", plain: "pager.accounts.plain" },
  members: { title: "pager.members.title", plain: "pager.members.plain" },
  teams: { title: "pager.teams.title", plain: "pager.teams.plain" },
  organizations: { title: "pager.organizations.title", plain: "pager.organizations.plain" },
} as const;
export type PagedNoun = keyof typeof NOUNS;

/** The words of the two links: the list's order decides them ("Newer"/"Older" or "Previous"/"Next"). */
const WORDS = {
  "newest-first": { previous: "pager.newer", next: "pager.older" },
  "in-order": { previous: "pager.previous", next: "pager.next" },
} as const;

/** The state a pager link carries: which heading to focus when the new page has loaded. */
type PagedState = { focusHeading?: string } | null;

/** "Events 21–40 of 52", "Accounts 10,001–10,025 of more than 10,000", in the reader's language. */
export function positionWords(t: Translator, noun: PagedNoun, at: ListPosition): string {
  const words = { Noun: t.t(NOUNS[noun].title), noun: t.t(NOUNS[noun].plain), total: t.number(at.total) };
  if (at.shown === 0) return t.t("pager.empty", words);
  const range = { ...words, first: t.number(at.first), last: t.number(at.first + at.shown - 1) };
  return t.t(at.totalIsExact === false ? "pager.positionMoreThan" : "pager.position", range);
}

/**
 * Nothing when everything fits on one page. `noun` names the list ("members"); `headingId` names the list's
 * heading, focused after a pager link is followed — not on a first load.
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
  noun: PagedNoun;
  at: ListPosition;
  previous: string | null;
  next: string | null;
  order?: keyof typeof WORDS;
  headingId: string;
  testId?: string;
}) {
  const t = useT();
  useFocusHeadingAfterPaging(headingId);
  if (!previous && !next) return null;
  const words = WORDS[order];
  const state: PagedState = { focusHeading: headingId };
  const plain = { noun: t.t(NOUNS[noun].plain) };
  // "Older<hidden> events</hidden>": the link's name says which list, the eye sees the one word.
  const hidden = { hidden: (chunks: ReactNode[]) => <span className="visually-hidden">{chunks}</span> };
  return (
    <nav aria-label={t.t("pager.label", plain)} className="pager">
      <p className="muted" data-testid={testId}>
        {positionWords(t, noun, at)}
      </p>
      <p className="pager-links">
        {previous ? (
          <Link to={previous} rel="prev" state={state}>
            {t.rich(words.previous, plain, hidden)}
          </Link>
        ) : null}
        {next ? (
          <Link to={next} rel="next" state={state}>
            {t.rich(words.next, plain, hidden)}
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
