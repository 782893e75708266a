// The languages Latchkey ships, and what Intl knows about any language: its direction and its own name. Shared by
// the server and the browser (the picker, <html dir>), so nothing here reads settings.
export const SHIPPED_LANGUAGES = ["en", "de", "fr", "es", "ar", "he"] as const;
export type ShippedLanguage = (typeof SHIPPED_LANGUAGES)[number];
export const SOURCE_LANGUAGE = "en";

/** A bare language tag as catalog files and AUTH_LANGUAGES name them: "de", "pt-BR", "zh-Hant". */
export const LANGUAGE_TAG = /^[a-z]{2,3}(-[A-Za-z0-9]{2,8}){0,2}$/;

export type Direction = "ltr" | "rtl";

/** From Intl.Locale's text info (Node 20: `textInfo`; newer engines: `getTextInfo()`), never from a list. */
export function directionOf(language: string): Direction {
  try {
    const locale = new Intl.Locale(language) as Intl.Locale & { textInfo?: { direction?: string }; getTextInfo?: () => { direction?: string } };
    const info = typeof locale.getTextInfo === "function" ? locale.getTextInfo() : locale.textInfo;
    return info?.direction === "rtl" ? "rtl" : "ltr";
  } catch {
    return "ltr";
  }
}

/** A language named in itself, as the picker lists it: "Deutsch", "Français", "العربية". */
export function nativeNameOf(language: string): string {
  let name = language;
  try {
    name = new Intl.DisplayNames([language], { type: "language" }).of(language) ?? language;
  } catch {
    // an unknown tag keeps its own spelling
  }
  return name.charAt(0).toLocaleUpperCase(language) + name.slice(1);
}
