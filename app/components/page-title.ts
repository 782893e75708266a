// Page titles. A page answered with a form's errors has its title prefixed "Error: ", so the first thing a
// screen reader says (and the tab's label) tells that the submission failed. Remix's `meta` cannot see action
// data, so the page actions mark the request (`markFormFailed`), the root loader passes the mark on, and a page
// wraps its `meta` in `withErrorTitle`. With JavaScript on, `ErrorSummary` keeps the title in step in the browser.
import type { MetaFunction } from "@remix-run/node";
import { ERROR_TITLE_PREFIX } from "~/components/forms";
import { translator, type Translator } from "~/i18n/format";
import { pageMessagesFor } from "~/i18n/page-messages";

type RootData = { formFailed?: boolean; language?: { lang: string } } | undefined;

/** The root's translator for `meta` (which hooks cannot reach); English keys as themselves without it. */
export function titleTranslator(matches: { id: string; data?: unknown }[]): Translator {
  const root = matches.find((match) => match.id === "root")?.data as RootData;
  const lang = root?.language?.lang ?? "en";
  return translator(lang, pageMessagesFor(lang)?.messages ?? {});
}

/** A title: a catalog key is read in the page's language; any other text (a page not yet translated) as written. */
const titled = (t: Translator, title: string) => (/^[a-z][A-Za-z0-9]*(\.[A-Za-z0-9]+)+$/.test(title) ? t.t(title) : title);

export function withErrorTitle(meta: MetaFunction): MetaFunction {
  return (args) => {
    const descriptors = meta(args) ?? [];
    const root = args.matches.find((match) => match.id === "root")?.data as RootData;
    if (!root?.formFailed) return descriptors;
    const prefix = titleTranslator(args.matches).t("common.errorPrefix");
    // A page whose loader already titled it "Error: …" (an error it was sent back with) keeps one prefix.
    return descriptors.map((d) =>
      "title" in d && typeof d.title === "string" && !d.title.startsWith(ERROR_TITLE_PREFIX) && !d.title.startsWith(prefix) ? { title: prefix + d.title } : d,
    );
  };
}

/**
 * A page's title, "Sign in · Latchkey", with the "Error: " prefix when its form was answered with errors, or when
 * `loadedWithError` finds one in the loader's data (e.g. a provider's `?error=`: the root loader, which runs beside
 * the page's, cannot know of it).
 */
export function pageTitle<Data = unknown>(title: string, loadedWithError?: (data: Data) => boolean): MetaFunction {
  return withErrorTitle(({ data, matches }) => {
    const t = titleTranslator(matches);
    return [{ title: `${data !== undefined && loadedWithError?.(data as Data) ? t.t("common.errorPrefix") : ""}${titled(t, title)} · Latchkey` }];
  });
}
