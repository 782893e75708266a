// Issue 44: every page in every language (the tests; every-language-<area>.spec.ts run them per area). Each page is opened in English, then in German, French, Spanish, Arabic
// and Hebrew: <html lang dir> follow the language, and no piece of the English page's text (text nodes, visually
// hidden text included, aria-label, alt, placeholder, title attributes and the document's title) is left on the
// page in another language, except what is rightly the same (user-written text in <bdi> or dir="auto", addresses
// and codes in dir="ltr", the language picker's names, a message the catalogs themselves keep alike). Without
// JavaScript every language; with JavaScript one right-to-left language, after hydration, with no console error
// (a hydration mismatch is one). axe finds nothing serious in German and Arabic, and no page scrolls sideways at
// 320 px in German, Arabic or Hebrew.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { Page } from "@playwright/test";
import type { PageInEveryLanguage } from "./pages";
import { expect, expectNoAxeViolations, signIn, test, type TestUser } from "../fixtures";

const LANGUAGES = ["de", "fr", "es", "ar", "he"] as const;
const RIGHT_TO_LEFT = new Set(["ar", "he"]);
/** axe in a language with long compounds and in one right to left; no sideways scrolling at 320 px in these. */
const AXE_IN = new Set(["de", "ar"]);
const NARROW_IN = new Set(["de", "ar", "he"]);

const catalog = (language: string): Record<string, string> =>
  JSON.parse(readFileSync(path.resolve("app/i18n/messages", `${language}.json`), "utf8"));
const english = catalog("en");
/** Messages a catalog keeps the same as English ("Code" in German): what they say may stay on that page. */
const alike = Object.fromEntries(
  LANGUAGES.map((language) => {
    const messages = catalog(language);
    return [language, new Set(Object.keys(english).filter((key) => messages[key] === english[key]).map((key) => english[key].trim()))];
  }),
);
/** Same in every language: the product's name, providers' names, "UTC". */
const ALWAYS_KEPT = [/^Latchkey$/, /^(GitHub|Google|Apple|Microsoft|Discord|GitLab|Test SSO)$/, /^UTC$/, /^·$/];

/** The words a person meets on the page, as separate pieces, without what is rightly the same everywhere. */
async function wordsOn(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const skip = (element: Element | null) =>
      element?.closest('script, style, template, bdi, [dir="ltr"]:not(html), [dir="auto"], [translate="no"], code, kbd, [lang]:not(html)') != null;
    // The title without the product's name after it ("Sitzungen · Latchkey").
    const pieces: string[] = [document.title.replace(/ · Latchkey$/, "")];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!skip(node.parentElement)) pieces.push(node.textContent ?? "");
    }
    for (const element of document.body.querySelectorAll("[aria-label], [alt], [placeholder], [title]")) {
      if (skip(element)) continue;
      for (const name of ["aria-label", "alt", "placeholder", "title"]) {
        const value = element.getAttribute(name);
        if (value) pieces.push(value);
      }
    }
    return pieces.map((piece) => piece.replace(/\s+/g, " ").trim()).filter((piece) => /\p{L}{2,}/u.test(piece));
  });
}

async function chooseLanguage(page: Page, baseURL: string, language: string) {
  const answer = await page.request.post("/language", { form: { lang: language, redirectTo: "/" }, headers: { Origin: baseURL }, maxRedirects: 0 });
  expect(answer.status()).toBe(302);
}

function leftInEnglish(englishWords: string[], words: string[], language: string, kept: (string | RegExp)[]): string[] {
  const shown = new Set(words);
  return [...new Set(englishWords)].filter(
    (piece) =>
      shown.has(piece) &&
      !alike[language].has(piece) &&
      ![...ALWAYS_KEPT, ...kept].some((rule) => (typeof rule === "string" ? piece === rule || piece.includes(rule) : rule.test(piece))),
  );
}

/** A page that answers an error status on purpose (404): those answers are not the page's errors. */
function allowStatus(consoleErrors: string[], status?: number) {
  if (status) consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((line) => !line.startsWith(`${status} for GET`)));
}

async function openEntry(entry: PageInEveryLanguage, page: Page, user: TestUser, baseURL: string, appServer: Parameters<PageInEveryLanguage["open"]>[0]["appServer"]) {
  if (!entry.signedOut) {
    await page.goto("/sign-in");
    await signIn(page, user);
  }
  const address = await entry.open({ page, user, request: page.request, baseURL, appServer });
  const kept = [user.name, user.email, ...(entry.kept ?? [])];
  return { address, kept };
}

/** The tests for one area's pages (one spec file each, so the browser suite's two workers share them). */
export function describeEveryLanguage(area: string, entries: PageInEveryLanguage[]): void {
  test.describe(`${area}, without JavaScript`, () => {
    test.use({ javaScriptEnabled: false });
    for (const entry of entries) {
      test(`${area}: ${entry.name} in every language`, async ({ page, user, baseURL, appServer, consoleErrors }) => {
        test.setTimeout(60_000);
        const { address, kept } = await openEntry(entry, page, user, baseURL!, appServer);
        await chooseLanguage(page, baseURL!, "en");
        await page.goto(address);
        const englishWords = await wordsOn(page);
        expect(englishWords.length, "the English page says something").toBeGreaterThan(3);
        for (const language of LANGUAGES) {
          await chooseLanguage(page, baseURL!, language);
          await page.goto(address);
          await expect(page.locator("html")).toHaveAttribute("lang", language);
          await expect(page.locator("html")).toHaveAttribute("dir", RIGHT_TO_LEFT.has(language) ? "rtl" : "ltr");
          expect(leftInEnglish(englishWords, await wordsOn(page), language, kept), `English left on ${address} in ${language}`).toEqual([]);
          // Every moment keeps its ISO time for machines and says the full date and time on hover, in this language.
          for (const time of await page.locator("time").evaluateAll((all) => all.map((t) => [t.getAttribute("datetime"), t.getAttribute("title")]))) {
            expect(time[0], `a <time> on ${address}`).toMatch(/^\d{4}-\d{2}-\d{2}T/);
            expect(time[1], `a <time>'s title on ${address}`).toMatch(/\d/);
          }
          if (AXE_IN.has(language)) await expectNoAxeViolations(page, language);
          if (NARROW_IN.has(language)) {
            await page.setViewportSize({ width: 320, height: 700 });
            const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
            expect(overflow, `no sideways scrolling at 320 px on ${address} in ${language}`).toBeLessThanOrEqual(0);
            await page.setViewportSize({ width: 1280, height: 720 });
          }
        }
        allowStatus(consoleErrors, entry.status);
      });
    }
  });

  test.describe(`${area}, with JavaScript`, () => {
    for (const entry of entries) {
      test(`${area}: ${entry.name} hydrates in Arabic`, async ({ page, user, baseURL, appServer, consoleErrors }) => {
        const { address, kept } = await openEntry(entry, page, user, baseURL!, appServer);
        await chooseLanguage(page, baseURL!, "en");
        await page.goto(address);
        const englishWords = await wordsOn(page);
        await chooseLanguage(page, baseURL!, "ar");
        await page.goto(address);
        // Hydrated: React has attached its handlers to the language picker's form.
        if (!entry.withoutScripts) {
          await page.waitForFunction(() => {
            const form = document.querySelector('[data-testid="language-picker"]');
            return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
          });
        }
        await expect(page.locator("html")).toHaveAttribute("dir", "rtl");
        expect(leftInEnglish(englishWords, await wordsOn(page), "ar", kept), `English left on ${address} after hydration`).toEqual([]);
        allowStatus(consoleErrors, entry.status);
      });
    }
  });
}
