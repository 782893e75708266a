// The accessibility check itself can fail: a page with faults, served at the app's address, is refused with
// JavaScript off (checked in the shared scripted tab, axe.ts) and on, and a fault that exists only in dark mode
// is caught only when the page is dark, so the colour scheme reaches that tab.
import { expect, test } from "@playwright/test";
import { expectNoAxeViolations } from "./axe";

const FAULTY = `<!doctype html><html lang="en"><head><title>Faulty</title></head>
<body><main><h1>Faulty</h1><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" width="1" height="1"></main></body></html>`;

const DARK_ONLY_FAULT = `<!doctype html><html lang="en"><head><title>Dark fault</title>
<style>p { color: #000; background: #fff } @media (prefers-color-scheme: dark) { p { color: #333; background: #222 } }</style></head>
<body><main><h1>Dark fault</h1><p>Hard to read in the dark.</p></main></body></html>`;

for (const javaScriptEnabled of [false, true]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("an image without a text alternative fails the check", async ({ page }) => {
      await page.route("**/__axe-check/faulty", (route) => route.fulfill({ contentType: "text/html", body: FAULTY }));
      await page.goto("/__axe-check/faulty");
      await expect(expectNoAxeViolations(page)).rejects.toThrow(/image-alt/);
    });

    test("a contrast fault in dark mode fails only when the page is dark", async ({ page }) => {
      await page.route("**/__axe-check/dark", (route) => route.fulfill({ contentType: "text/html", body: DARK_ONLY_FAULT }));
      await page.goto("/__axe-check/dark");
      await expectNoAxeViolations(page);
      await page.emulateMedia({ colorScheme: "dark" });
      await expect(expectNoAxeViolations(page)).rejects.toThrow(/color-contrast/);
    });
  });
}
