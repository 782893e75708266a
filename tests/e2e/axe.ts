// Accessibility: axe-core runs on the page and any violation, of any impact, fails the test. Called on every
// page state the browser tests reach (JavaScript off and on, errors included).
// axe needs timers, which do not run in a page with JavaScript turned off: such a page's HTML is checked in a
// second, scripted tab that receives exactly that HTML on the same site, at the same size and colour scheme (its
// stylesheets load as usual; its scripts are left out, so nothing hydrates and the page stays as the visitor
// without JavaScript sees it). That tab is opened once per browser and each page's HTML is written into it:
// a tab of its own per check, with axe's half a megabyte of source evaluated anew, took ~2 s a check.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, type Browser, type Page } from "@playwright/test";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

const RUN_AXE = `window.axe.run(document, { resultTypes: ["violations"] }).then((result) =>
  result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))`;

async function runAxe(page: Page): Promise<AxeViolation[]> {
  if ((await page.evaluate("typeof window.axe")) === "undefined") await page.evaluate(AXE_SOURCE);
  return (await page.evaluate(RUN_AXE)) as AxeViolation[];
}

/** Whether the page runs scripts: a zero-delay timer fires only when JavaScript is on. */
async function scriptsRun(page: Page): Promise<boolean> {
  const probe = page.evaluate("new Promise((resolve) => setTimeout(() => resolve(true), 0))").catch(() => false);
  return Promise.race([probe.then(Boolean), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 500))]);
}

/** The scripted tab that checks pages seen without JavaScript, one per browser (see the top of this file). */
const twins = new WeakMap<Browser, Promise<Page>>();

function twinFor(browser: Browser): Promise<Page> {
  let twin = twins.get(browser);
  if (!twin) {
    // Explicitly on: inside a test, new contexts inherit the file's options, JavaScript off included.
    twin = browser.newContext({ javaScriptEnabled: true }).then((context) => context.newPage());
    twins.set(browser, twin);
  }
  return twin;
}

async function violationsWithoutScripts(page: Page): Promise<AxeViolation[]> {
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
  const twin = await twinFor(page.context().browser()!);
  const origin = new URL(page.url()).origin;
  if (new URL(twin.url()).origin !== origin) {
    // An empty page on the site, so the written HTML's stylesheets load from it as the visitor's did.
    await twin.route(`${origin}/__axe-twin`, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: "" }));
    await twin.goto(`${origin}/__axe-twin`);
  }
  const viewport = page.viewportSize();
  if (viewport) await twin.setViewportSize(viewport);
  await twin.emulateMedia({ colorScheme: await colorScheme(page) });
  // document.write keeps the tab's window, and with it axe once loaded; "load" waits for the stylesheets.
  await twin.setContent(html, { waitUntil: "load" });
  return runAxe(twin);
}

async function colorScheme(page: Page): Promise<"dark" | "light"> {
  return (await page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")) ? "dark" : "light";
}

export async function expectNoAxeViolations(page: Page, label = ""): Promise<void> {
  await page.waitForLoadState("load");
  const violations = (await scriptsRun(page)) ? await runAxe(page) : await violationsWithoutScripts(page);
  const readable = violations.map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`);
  expect(readable, `axe violations on ${page.url()}${label ? ` (${label})` : ""}`).toEqual([]);
}
