// Pages of a long list as plain links (no JavaScript needed): where the rows shown sit in the whole list, and the
// pages before and after. The organization's members and a person's organizations page this way (issue 28).
import { Link } from "@remix-run/react";
import type { PageAt } from "~/auth/schemas";

/** `?<name>=2`: which page to show (from 1); anything else shows the first. */
export function pageNumberOf(request: Request, name: string): number {
  const asked = Number(new URL(request.url).searchParams.get(name));
  return Number.isInteger(asked) && asked >= 1 && asked <= 100_000 ? asked : 1;
}

/** Nothing when everything fits on the first page. `noun` is plural and lower case ("members"). */
export function Pager({ at, noun, href, testId }: { at: PageAt; noun: string; href: (page: number) => string; testId?: string }) {
  if (at.total <= at.shown && at.page === 1) return null;
  const Noun = noun.charAt(0).toUpperCase() + noun.slice(1);
  return (
    <nav aria-label={`Pages of ${noun}`} className="pager">
      <p className="muted" data-testid={testId}>
        {at.shown > 0 ? `${Noun} ${at.first}–${at.first + at.shown - 1} of ${at.total}` : `No ${noun} on this page; there are ${at.total}.`}
      </p>
      <p>
        {at.page > 1 ? (
          <Link to={href(Math.min(at.page - 1, at.pages))} rel="prev">
            {`Earlier ${noun}`}
          </Link>
        ) : null}
        {at.page > 1 && at.page < at.pages ? " · " : null}
        {at.page < at.pages ? (
          <Link to={href(at.page + 1)} rel="next">
            {`More ${noun}`}
          </Link>
        ) : null}
      </p>
    </nav>
  );
}
