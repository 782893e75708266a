// Proof of work on the sign-in page under a burst (issue 39 §5, ADR 060): without JavaScript the page says in
// words to wait or sign in another way; with JavaScript the ALTCHA widget solves a challenge by itself and the
// sign-in goes through. The burst: five wrong passwords for the account from new devices. This file's worker runs
// a server of its own with AUTH_POW on (a small cost, so the browser solves in well under a second).
import { createScratchDatabase } from "../../scripts/lib/scratch-database.mjs";
import { spawnServer } from "../../scripts/lib/spawn-server.mjs";
import { E2E_ENV, expect, expectNoAxeViolations, PASSWORD, test as base, uniqueEmail } from "./fixtures";
import type { APIRequestContext } from "@playwright/test";

const test = base.extend<object, { appServer: { baseUrl: string; database: { kind: "sqlite"; url: string; file: string } } }>({
  appServer: [
    async ({}, use) => {
      const database = await createScratchDatabase("sqlite", "latchkey_e2e_pow");
      const server = await spawnServer({ env: { ...E2E_ENV, AUTH_POW: "on", AUTH_POW_COST: "20", TRUST_PROXY: "true", DATABASE_URL: database.url }, timeoutMs: 60_000 });
      await use({ baseUrl: server.baseUrl, database: { kind: "sqlite", url: database.url, file: database.url.replace(/^file:/, "") } });
      await server.stop();
      await database.drop();
    },
    { scope: "worker", timeout: 90_000 },
  ],
});

let address = 0;
/** Each setup request from an address of its own (the server trusts the header), so the browser's stays quiet. */
const elsewhere = (baseURL: string) => ({ Origin: baseURL, Cookie: "", "X-Forwarded-For": `10.9.${Math.floor(++address / 250)}.${address % 250}` });

/** An account whose new devices have made five wrong passwords: a burst for it, not for the browser's address. */
async function accountUnderBurst(request: APIRequestContext, baseURL: string) {
  const user = { name: "Burst Target", email: uniqueEmail("pow"), password: PASSWORD };
  expect((await request.post("/api/auth/sign-up/email", { data: user, headers: elsewhere(baseURL) })).status()).toBe(200);
  const wrong = { email: user.email, password: "not the password" };
  for (let i = 0; i < 5; i++) expect((await request.post("/api/auth/sign-in/email", { data: wrong, headers: elsewhere(baseURL) })).status()).toBe(401);
  // The evidence is written just after each answer.
  await expect.poll(async () => (await request.post("/api/auth/sign-in/email", { data: wrong, headers: elsewhere(baseURL) })).status()).toBe(400);
  return user;
}

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the sign-in page says to wait or sign in another way", async ({ page, playwright, baseURL }) => {
    const request = await playwright.request.newContext({ baseURL });
    const user = await accountUnderBurst(request, baseURL!);
    await page.goto("/sign-in");
    await page.getByLabel("Email or username").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.locator(".error-summary")).toContainText("needs a short check first");
    const check = page.getByRole("group", { name: /One more step/ });
    await expect(check).toContainText("The puzzle needs JavaScript, which is off in this browser.");
    await expect(check).toContainText(/Try again in \d+ minutes?/);
    await expect(check.getByRole("link", { name: "with a code we email you" })).toHaveAttribute("href", "/sign-in/code");
    await expectNoAxeViolations(page, "sign-in under a burst, without JavaScript");
    await request.dispose();
  });
});

test.describe("with JavaScript", () => {
  // A second of work in the browser on top of the sign-in: room for a machine busy with other suites.
  test.describe.configure({ timeout: 60_000 });
  test("the widget solves the challenge and the sign-in goes through", async ({ page, playwright, baseURL }) => {
    const request = await playwright.request.newContext({ baseURL });
    const user = await accountUnderBurst(request, baseURL!);
    await page.goto("/sign-in");
    await page.getByLabel("Email or username").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.locator(".error-summary")).toContainText("needs a short check first");
    await expect(page.locator('altcha-widget [data-state="verified"]')).toBeAttached({ timeout: 20_000 });
    await expectNoAxeViolations(page, "sign-in under a burst, the check solved");
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL("/account");
    await request.dispose();
  });

  test("the check fits a phone in dark mode", async ({ browser, baseURL, playwright }) => {
    const request = await playwright.request.newContext({ baseURL });
    const user = await accountUnderBurst(request, baseURL!);
    const context = await browser.newContext({ baseURL, viewport: { width: 360, height: 740 }, colorScheme: "dark" });
    const page = await context.newPage();
    await page.goto("/sign-in");
    await page.getByLabel("Email or username").fill(user.email);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.locator('altcha-widget [data-state="verified"]')).toBeAttached({ timeout: 20_000 });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await expectNoAxeViolations(page, "the check on a phone, dark");
    await context.close();
    await request.dispose();
  });
});
