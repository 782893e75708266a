// Page titles. A page answered with a form's errors has its title prefixed "Error: ", so the first thing a
// screen reader says (and the tab's label) tells that the submission failed. Remix's `meta` cannot see action
// data, so the page actions mark the request (`markFormFailed`), the root loader passes the mark on, and a page
// wraps its `meta` in `withErrorTitle`. With JavaScript on, `ErrorSummary` keeps the title in step in the browser.
import type { MetaFunction } from "@remix-run/node";
import { ERROR_TITLE_PREFIX } from "~/components/forms";

type RootData = { formFailed?: boolean } | undefined;

export function withErrorTitle(meta: MetaFunction): MetaFunction {
  return (args) => {
    const descriptors = meta(args) ?? [];
    const root = args.matches.find((match) => match.id === "root")?.data as RootData;
    if (!root?.formFailed) return descriptors;
    return descriptors.map((d) => ("title" in d && typeof d.title === "string" ? { title: ERROR_TITLE_PREFIX + d.title } : d));
  };
}

/** A page's title, "Sign in · Latchkey", with the "Error: " prefix when its form was answered with errors. */
export const pageTitle = (title: string): MetaFunction => withErrorTitle(() => [{ title: `${title} · Latchkey` }]);
