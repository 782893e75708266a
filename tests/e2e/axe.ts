// Accessibility: axe-core runs on the page and any violation, of any impact, fails the test. Called on every
// page state the browser tests reach (JavaScript off and on, errors included).
// axe needs timers, which do not run in a page with JavaScript turned off: such a page's HTML is checked in a
// second, scripted tab that receives exactly that HTML at the same address (its stylesheets load as usual; its
// scripts are left out, so nothing hydrates and the page stays as the visitor without JavaScript sees it).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect, type Page } from "@playwright/test";

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

async function violationsWithoutScripts(page: Page): Promise<AxeViolation[]> {
  const html = (await page.content()).replace(/<script\b[\s\S]*?<\/script>/gi, "");
  const browser = page.context().browser()!;
  // Explicitly on: inside a test, new contexts inherit the file's options, JavaScript off included.
  const context = await browser.newContext({ javaScriptEnabled: true, viewport: page.viewportSize(), colorScheme: await colorScheme(page) });
  try {
    const twin = await context.newPage();
    const url = page.url();
    await twin.route(url, (route) => route.fulfill({ status: 200, contentType: "text/html; charset=utf-8", body: html }));
    await twin.goto(url);
    return await runAxe(twin);
  } finally {
    await context.close();
  }
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
