// Issue 44: the shipped catalogs are complete, parse, keep English's placeholders and every plural category of
// their language, are not left in English, and every key is used (and every key used exists). And the style sheet
// holds no physical left/right, so right-to-left pages mirror.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { IntlMessageFormat } from "intl-messageformat";
import { ERRORS } from "~/auth/errors";
import { messageProblem, SHIPPED_CATALOGS } from "~/i18n/catalogs.server";
import { SHIPPED_LANGUAGES, SOURCE_LANGUAGE } from "~/i18n/languages";

const english = SHIPPED_CATALOGS[SOURCE_LANGUAGE];
const keys = Object.keys(english);
/** Messages that read the same in English and another language: placeholders and UTC, or a word spelt alike. */
const SAME_AS_ENGLISH: Record<string, string[]> = {
  "common.dateTimeUtc": ["de", "fr", "es", "he"],
  "common.errorPrefix": ["es"],
  "signUp.name": ["de"],
  "code.code": ["de", "fr"],
  "twoFactor.code": ["de", "fr"],
  "profile.name": ["de"],
  "said.nav.passkeys": ["de"],
  "said.nav.sessions": ["fr"],
  "said.nav.applications": ["fr"],
  "sessions.title": ["fr"],
  "tf.code": ["de", "fr"],
  "passkeys.title": ["de"],
  "apps.title": ["fr"],
  "orgs.invite.teams": ["de"],
  "orgs.tabs.teams": ["de"],
  "orgs.teams.pageTitle": ["de"],
  "orgs.teams.title": ["de"],
  "orgs.team.fallbackTitle": ["de"],
  "orgs.resource.team": ["de"],
  "orgs.invitations.title": ["fr"],
  "orgs.resource.invitation": ["fr"],
  "orgs.tabs.roles": ["es"],
  "orgs.roles.pageTitle": ["es"],
  "orgs.resource.ac": ["es"],
  "activity.deviceAndAddress": ["de", "fr", "es", "he"],
  "notMe.row": ["de", "fr", "es", "he"],
  "pager.teams.title": ["de"],
  "admin.accounts.byName": ["de"],
  "admin.accounts.admins": ["de"],
  "admin.user.name": ["de"],
  "admin.actions.roleAdmin": ["de"],
  "admin.apps.name": ["de"],
  "mail.common.actionLine": ["de", "es", "ar", "he"],
};

type Element = { type: number; value?: string; pluralType?: string; options?: Record<string, { value: Element[] }>; children?: Element[] };
function plurals(elements: Element[], found: Element[] = []): Element[] {
  for (const element of elements) {
    if (element.type === 6) found.push(element);
    for (const option of Object.values(element.options ?? {})) plurals(option.value, found);
    if (element.children) plurals(element.children, found);
  }
  return found;
}

describe.each(SHIPPED_LANGUAGES)("the %s catalog", (language) => {
  const catalog = SHIPPED_CATALOGS[language];
  test("has every key of en.json and no other", () => {
    expect(Object.keys(catalog).sort()).toEqual([...keys].sort());
  });
  test("parses, with English's placeholders of the same kinds", () => {
    for (const key of keys) expect(messageProblem(language, catalog[key], english[key]), key).toBeNull();
  });
  test("covers every plural category of the language", () => {
    const categories = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
    for (const key of keys) {
      const ast = new IntlMessageFormat(catalog[key], language).getAst() as unknown as Element[];
      for (const plural of plurals(ast)) {
        if (plural.pluralType === "ordinal") continue;
        for (const category of categories) expect(Object.keys(plural.options ?? {}), `${key}: ${category}`).toContain(category);
      }
    }
  });
  test.skipIf(language === SOURCE_LANGUAGE)("leaves nothing in English", () => {
    const same = keys.filter((key) => catalog[key] === english[key] && !SAME_AS_ENGLISH[key]?.includes(language));
    expect(same).toEqual([]);
  });
});

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const file = path.join(directory, name);
    if (statSync(file).isDirectory()) return name === "generated" ? [] : sourceFiles(file);
    return /\.(ts|tsx)$/.test(name) ? [file] : [];
  });
}
const source = sourceFiles(path.resolve("app")).map((file) => readFileSync(file, "utf8")).join("\n");
/**
 * Keys made at run time from a prefix (failureOf's "errors.404.title"; "apiError." + a catalogue code, below), or
 * found by the English the code writes ("said.", held by i18n-said.test.ts).
 */
const DYNAMIC_PREFIXES = ["errors.", "apiError.", "said.", "errorPage.", "refusal."];

test("every catalogue code has its API message in every language, English's being the catalogue's own", () => {
  const codes = Object.keys(ERRORS);
  for (const language of SHIPPED_LANGUAGES) {
    expect(codes.filter((code) => !Object.hasOwn(SHIPPED_CATALOGS[language], `apiError.${code}`)), language).toEqual([]);
  }
  for (const code of codes) expect(english[`apiError.${code}`], code).toBe((ERRORS as Record<string, readonly [number, string]>)[code][1]);
  const stale = keys.filter((key) => key.startsWith("apiError.") && !Object.hasOwn(ERRORS, key.slice("apiError.".length)));
  expect(stale, "API messages for codes the catalogue no longer has").toEqual([]);
});

test("every key is used somewhere in app/", () => {
  const unused = keys.filter((key) => !source.includes(`"${key}"`) && !DYNAMIC_PREFIXES.some((prefix) => key.startsWith(prefix)));
  expect(unused).toEqual([]);
});

test("every key a page asks for exists", () => {
  const asked = [...source.matchAll(/\b(?:t|rich|pageTitle)\(\s*"([a-z][A-Za-z0-9]*(?:\.[A-Za-z0-9]+)+)"/g)].map((match) => match[1]);
  expect(asked.length).toBeGreaterThan(10);
  expect(asked.filter((key) => !Object.hasOwn(english, key))).toEqual([]);
});

test("app/styles.css uses logical properties only: no physical left or right", () => {
  const css = readFileSync(path.resolve("app/styles.css"), "utf8").replace(/\/\*[\s\S]*?\*\//g, "");
  expect(css.match(/[^;{}]*\b(left|right)\b[^;{}]*/g) ?? []).toEqual([]);
});
