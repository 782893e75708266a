// Issue 44: AUTH_LANGUAGES, AUTH_DEFAULT_LANGUAGE and AUTH_MESSAGES_DIR are checked at start-up with the other
// settings; each refusal names the variable, the file and the key.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { parseEnv } from "~/env.server";
import { SHIPPED_CATALOGS } from "~/i18n/catalogs.server";

const base = { NODE_ENV: "test", AUTH_SECRET: "unit-test-secret-0123456789-0123456789", BASE_URL: "http://localhost:3000" } as const;
function messagesDir(files: Record<string, unknown>): string {
  const directory = mkdtempSync(path.join(tmpdir(), "latchkey-messages-"));
  for (const [name, content] of Object.entries(files)) writeFileSync(path.join(directory, name), typeof content === "string" ? content : JSON.stringify(content));
  return directory;
}

describe("start-up refusals", () => {
  test("an unknown language in AUTH_LANGUAGES", () => {
    expect(() => parseEnv({ ...base, AUTH_LANGUAGES: "en,xx" })).toThrow(/AUTH_LANGUAGES: "xx" is neither shipped/);
  });
  test("a default language not on offer", () => {
    expect(() => parseEnv({ ...base, AUTH_LANGUAGES: "en,de", AUTH_DEFAULT_LANGUAGE: "fr" })).toThrow(/AUTH_DEFAULT_LANGUAGE: "fr" is not one of AUTH_LANGUAGES/);
  });
  test("an unknown key, naming the file and the key", () => {
    const directory = messagesDir({ "de.json": { "home.titel": "Hallo" } });
    expect(() => parseEnv({ ...base, AUTH_MESSAGES_DIR: directory })).toThrow(`${path.join(directory, "de.json")}: "home.titel" is not a key of the catalog`);
  });
  test("a message that does not parse", () => {
    const directory = messagesDir({ "fr.json": { "home.title": "Bonjour {" } });
    expect(() => parseEnv({ ...base, AUTH_MESSAGES_DIR: directory })).toThrow(/fr\.json: "home\.title" does not parse/);
  });
  test("a placeholder English lacks, or one English has that is missing", () => {
    const extra = messagesDir({ "de.json": { "home.title": "Hallo {name}" } });
    expect(() => parseEnv({ ...base, AUTH_MESSAGES_DIR: extra })).toThrow(/"home\.title" has the placeholder \{name\}, which the English message lacks/);
    const missing = messagesDir({ "de.json": { "home.signedInAs": "Angemeldet." } });
    expect(() => parseEnv({ ...base, AUTH_MESSAGES_DIR: missing })).toThrow(/"home\.signedInAs" lacks the placeholder \{(name|bdi)\}/);
  });
  test("an incomplete new language", () => {
    const directory = messagesDir({ "it.json": { "home.title": "Accesso per le tue app" } });
    expect(() => parseEnv({ ...base, AUTH_MESSAGES_DIR: directory })).toThrow(/it\.json: "it" is not shipped, so its file must be complete; ".+" is missing/);
  });
  test("a file that is not JSON", () => {
    const directory = messagesDir({ "de.json": "{ not json" });
    expect(() => parseEnv({ ...base, AUTH_MESSAGES_DIR: directory })).toThrow(/de\.json: not JSON/);
  });
});

describe("what the settings give", () => {
  test("by default every shipped language is on offer and English is the default", () => {
    const env = parseEnv(base);
    expect(env.i18n.languages).toEqual(["en", "de", "fr", "es", "ar", "he"]);
    expect(env.i18n.defaultLanguage).toBe("en");
    expect(env.AUTH_TRANSLATE_API_ERRORS).toBe("off");
  });
  test("an override replaces only its keys; a complete file adds a language", () => {
    const italian = Object.fromEntries(Object.keys(SHIPPED_CATALOGS.en).map((key) => [key, SHIPPED_CATALOGS.en[key]]));
    italian["home.title"] = "Accesso per le tue app";
    const directory = messagesDir({ "de.json": { "home.title": "Anmelden bei Beispiel" }, "it.json": italian });
    const env = parseEnv({ ...base, AUTH_MESSAGES_DIR: directory, AUTH_DEFAULT_LANGUAGE: "it" });
    expect(env.i18n.messages.de["home.title"]).toBe("Anmelden bei Beispiel");
    expect(env.i18n.messages.de["home.createAccount"]).toBe(SHIPPED_CATALOGS.de["home.createAccount"]);
    expect(env.i18n.languages).toEqual(["en", "de", "fr", "es", "ar", "he", "it"]);
    expect(env.i18n.messages.it["home.title"]).toBe("Accesso per le tue app");
  });
  test("AUTH_LANGUAGES narrows the offer", () => {
    expect(parseEnv({ ...base, AUTH_LANGUAGES: "de, en", AUTH_DEFAULT_LANGUAGE: "de" }).i18n.languages).toEqual(["de", "en"]);
  });
});
