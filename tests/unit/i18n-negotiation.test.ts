// Issue 44: the one rule that picks a language, and the formatting helpers compared with Intl itself.
import { describe, expect, test } from "vitest";
import { chooseLanguage } from "~/i18n/negotiate";
import { formattingLocale, translator } from "~/i18n/format";
import { directionOf, nativeNameOf, SHIPPED_LANGUAGES } from "~/i18n/languages";
import { SHIPPED_CATALOGS } from "~/i18n/catalogs.server";

const offer = ["en", "de", "fr", "es", "ar", "he"];
const choose = (signals: Parameters<typeof chooseLanguage>[0], fallback = "en") => chooseLanguage(signals, offer, fallback);

describe("choosing a language", () => {
  test("the saved language beats the cookie, ui_locales and the header", () => {
    expect(choose({ saved: "ar", cookie: "de", uiLocales: "fr", acceptLanguage: "es" })).toBe("ar");
  });
  test("then the picker's cookie, then ui_locales, then Accept-Language", () => {
    expect(choose({ cookie: "de", uiLocales: "fr", acceptLanguage: "es" })).toBe("de");
    expect(choose({ uiLocales: "ja fr-CA de", acceptLanguage: "es" })).toBe("fr");
    expect(choose({ acceptLanguage: "es" })).toBe("es");
  });
  test("q-values are honoured and q=0 is excluded", () => {
    expect(choose({ acceptLanguage: "de;q=0.5, fr;q=0.9" })).toBe("fr");
    expect(choose({ acceptLanguage: "fr;q=0, de;q=0.1" })).toBe("de");
    expect(choose({ acceptLanguage: "fr;q=0" }, "es")).toBe("es");
  });
  test("a region falls back to its language; the first one on offer wins", () => {
    expect(choose({ acceptLanguage: "de-AT" })).toBe("de");
    expect(choose({ acceptLanguage: "es-419" })).toBe("es");
    expect(choose({ acceptLanguage: "ja, fr;q=0.8" })).toBe("fr");
  });
  test("'*' and languages not on offer give the operator's default", () => {
    expect(choose({ acceptLanguage: "*" }, "de")).toBe("de");
    expect(choose({ acceptLanguage: "ja, zh;q=0.5" }, "fr")).toBe("fr");
    expect(choose({ acceptLanguage: "garbage;;;=," }, "he")).toBe("he");
  });
  test("a saved language or cookie not on offer is passed over", () => {
    expect(chooseLanguage({ saved: "ar", cookie: "ar", acceptLanguage: "de" }, ["en", "de"], "en")).toBe("de");
    expect(choose({ cookie: "<script>", acceptLanguage: "he" })).toBe("he");
    expect(choose({ cookie: "DE" }, "fr")).toBe("fr");
  });
});

describe("languages", () => {
  test("direction comes from Intl.Locale", () => {
    expect(SHIPPED_LANGUAGES.map(directionOf)).toEqual(["ltr", "ltr", "ltr", "ltr", "rtl", "rtl"]);
    expect(directionOf("fa")).toBe("rtl");
  });
  test("each language is named in itself", () => {
    expect(SHIPPED_LANGUAGES.map(nativeNameOf)).toEqual(["English", "Deutsch", "Français", "Español", "العربية", "עברית"]);
  });
});

describe.each(SHIPPED_LANGUAGES)("formatting in %s", (language) => {
  const t = translator(language, SHIPPED_CATALOGS[language]);
  const locale = formattingLocale(language);
  const at = new Date("2026-12-01T23:21:00Z");
  test("dates and times in UTC, as Intl writes them", () => {
    if (language === "de") expect(t.dateTime(at)).toBe("1. Dezember 2026 um 23:21 UTC");
    if (language === "en") expect(t.dateTime(at)).toBe("1 December 2026 at 23:21 UTC");
    expect(t.date(at)).toBe(new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(at));
    expect(t.dateTime(at)).toContain(new Intl.DateTimeFormat(locale, { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(at));
  });
  test("relative times by Intl.RelativeTimeFormat", () => {
    const relative = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
    expect(t.relative(new Date(at.getTime() - 5 * 60_000), at)).toBe(relative.format(-5, "minute"));
    expect(t.relative(new Date(at.getTime() - 3 * 3_600_000), at)).toBe(relative.format(-3, "hour"));
    expect(t.relative(new Date(at.getTime() - 36 * 3_600_000), at)).toBe(relative.format(-1, "day"));
    expect(t.relative(new Date(at.getTime() - 10_000), at)).toBe(SHIPPED_CATALOGS[language]["common.justNow"]);
  });
  test("lists by Intl.ListFormat", () => {
    const items = ["a", "b", "c"];
    expect(t.list(items)).toBe(new Intl.ListFormat(locale, { type: "conjunction" }).format(items));
  });
  test("plurals by ICU with every category of the language", () => {
    const message = "{count, plural, zero {Z} one {O} two {T} few {F} many {M} other {X}}";
    const rules = new Intl.PluralRules(language);
    const local = translator(language, { k: message });
    const letter: Record<string, string> = { zero: "Z", one: "O", two: "T", few: "F", many: "M", other: "X" };
    for (const count of [0, 1, 2, 3, 11, 100, 1_000_000]) expect(local.t("k", { count })).toBe(letter[rules.select(count)]);
  });
});

describe("the server's own refusal pages", () => {
  test("are in the browser's language, or the picker's, with lang, dir and the picker", async () => {
    const { refusalPage } = await import("~/http/error-page.server");
    const german = refusalPage(403, "text/html", { "accept-language": "de-CH, en;q=0.5" })!;
    expect(german.body).toContain('<html lang="de" dir="ltr">');
    expect(german.body).toContain("<title>Fehler: Das wurde abgelehnt · Latchkey</title>");
    expect(german.headers["Content-Language"]).toBe("de");
    expect(german.body).toContain('<form method="post" action="/language" data-testid="language-picker">');
    const arabic = refusalPage(405, "text/html", { cookie: "latchkey.language=ar", "accept-language": "de" })!;
    expect(arabic.body).toContain('<html lang="ar" dir="rtl">');
    expect(arabic.body).toContain("لا يمكن تنفيذ ذلك هنا");
    expect(refusalPage(400, "text/html")!.body).toContain('<html lang="en" dir="ltr">');
  });
});
