// Issue 44, operators: AUTH_MESSAGES_DIR. A subset of a shipped language's keys replaces those messages on pages
// (and API messages: api-error-languages.test.ts); a complete file for another language adds it, offered by the
// picker, negotiated from Accept-Language, named and directed by Intl.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ApiClient, shownText } from "../support/client";
import { sharedServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  const folder = mkdtempSync(path.join(tmpdir(), "latchkey-overrides-"));
  writeFileSync(path.join(folder, "fr.json"), JSON.stringify({ "home.title": "La connexion d’Exemple SA" }));
  // Italian, complete: every key of the English catalog (an operator translates from it; here its words stand in).
  const english = JSON.parse(readFileSync(path.resolve("app/i18n/messages/en.json"), "utf8")) as Record<string, string>;
  writeFileSync(path.join(folder, "it.json"), JSON.stringify({ ...english, "home.title": "Accesso per le tue app" }));
  server = await sharedServer({ env: { AUTH_MESSAGES_DIR: folder } });
});

const page = (address: string, language: string) => new ApiClient(server.baseUrl).get(address, { "accept-language": language });

describe("an operator's messages", () => {
  it("an override replaces that message on the page, and only that one", async () => {
    const french = await page("/", "fr");
    expect(french.text).toContain('<html lang="fr" dir="ltr">');
    expect(shownText(french.text)).toContain("La connexion d’Exemple SA");
    expect(shownText(french.text)).not.toContain("La connexion pour vos applications");
    expect(shownText((await page("/sign-in", "fr")).text)).toContain("Se connecter");
    // Other languages keep the shipped words.
    expect(shownText((await page("/", "de")).text)).toContain("Anmeldung für Ihre Apps");
  });

  it("a complete file adds a language: negotiated, offered by the picker in its own name", async () => {
    const italian = await page("/", "it-CH, en;q=0.5");
    expect(italian.text).toContain('<html lang="it" dir="ltr">');
    expect(shownText(italian.text)).toContain("Accesso per le tue app");
    expect(italian.text).toMatch(/<option[^>]*value="it"[^>]*>Italiano<\/option>/);
    // Chosen with the picker: lasting, whatever the browser asks for.
    const browser = new ApiClient(server.baseUrl);
    const chosen = await browser.request("POST", "/language", {
      rawBody: "lang=it&redirectTo=%2F",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(chosen.status).toBe(302);
    expect(browser.cookies.get("latchkey.language")).toBe("it");
    expect((await browser.get("/", { "accept-language": "de" })).text).toContain('<html lang="it" dir="ltr">');
  });
});
