// The page's language in React: the root loader (or, on an error page it did not run for, the server entry) hands
// down the language, its direction and its messages, so the server and the hydrating browser say the same words.
import { createContext, useContext, useMemo } from "react";
import { translator, type Translator } from "~/i18n/format";
import type { PageLanguage } from "~/i18n/i18n.server";

const EMPTY: PageLanguage = { lang: "en", dir: "ltr", messages: {}, offered: [] };
const PageLanguageContext = createContext<PageLanguage>(EMPTY);
const TranslatorContext = createContext<Translator>(translator("en", {}));

export function I18nProvider({ language, children }: { language: PageLanguage | null; children: React.ReactNode }) {
  const current = language ?? EMPTY;
  const t = useMemo(() => translator(current.lang, current.messages, current.source), [current.lang, current.messages, current.source]);
  return (
    <PageLanguageContext.Provider value={current}>
      <TranslatorContext.Provider value={t}>{children}</TranslatorContext.Provider>
    </PageLanguageContext.Provider>
  );
}

/** The page's translator: `t("home.title")`, dates, lists and relative times in the reader's language. */
export const useT = (): Translator => useContext(TranslatorContext);
export const usePageLanguage = (): PageLanguage => useContext(PageLanguageContext);

/** For an error page the root loader did not run for: the server entry's choice, carried as inert JSON. */
export const ErrorPageLanguageContext = createContext<PageLanguage | null>(null);
const SCRIPT_ID = "error-page-language";

export function useErrorPageLanguage(): PageLanguage | null {
  const handed = useContext(ErrorPageLanguageContext);
  if (handed || typeof document === "undefined") return handed;
  const text = document.getElementById(SCRIPT_ID)?.textContent;
  if (!text) return null;
  try {
    return JSON.parse(text) as PageLanguage;
  } catch {
    return null;
  }
}

export function ErrorPageLanguageData({ language }: { language: PageLanguage }) {
  return <script type="application/json" id={SCRIPT_ID} dangerouslySetInnerHTML={{ __html: JSON.stringify(language).replace(/</g, "\\u003c") }} />;
}
