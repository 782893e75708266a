// Fixtures and steps shared by the browser specs, so each spec reads like the user's story.
// - Each Playwright worker runs its own server on its own fresh SQLite database (`appServer`), and the specs'
//   relative URLs (`baseURL`) go to it: workers run side by side without seeing each other's rows. All of them
//   send mail to the one SMTP server of global-setup.ts and sign in with its one OpenID provider.
// - Any console error or uncaught page error in any browser context a test opens fails that test.
// - `user` is a fresh account (unique e-mail) created through the JSON API, for stories that start signed out.
// - `openContext` opens a second browser (another device) with the same options as the test's own, or with
//   JavaScript on or off where the story needs the other (a mail scanner that runs scripts).
import { test as base, expect, type BrowserContext, type BrowserContextOptions, type Cookie, type Page } from "@playwright/test";
import { createScratchDatabase } from "../../scripts/lib/scratch-database.mjs";
import { spawnServer } from "../../scripts/lib/spawn-server.mjs";
import { expectNoAxeViolations } from "./axe";
import { E2E_IDP_PORT, E2E_SMTP_PORT } from "./ports";

export { expect, expectNoAxeViolations };

export const SESSION_COOKIE = "latchkey.session_token";
export const PASSWORD = "correct horse battery staple";

let sequence = 0;
/** An address no other test (and no earlier run on the same database) has used. */
export function uniqueEmail(label: string): string {
  sequence += 1;
  return `${label}-${Date.now().toString(36)}-${process.pid}-${sequence}@example.com`;
}

export interface TestUser {
  name: string;
  email: string;
  password: string;
}

interface Fixtures {
  consoleErrors: string[];
  user: TestUser;
  openContext: (options?: Pick<BrowserContextOptions, "javaScriptEnabled">) => Promise<{ context: BrowserContext; page: Page }>;
}

interface WorkerFixtures {
  /** Settings a spec adds to E2E_ENV for its workers' servers (`test.use({ appServerEnv })`, a worker option). */
  appServerEnv: Record<string, string>;
  /**
   * This worker's server: the built app (server.mjs) on a free port, on a database of its own. `database` is that
   * SQLite database (`file`: its path), for a spec that sets up what no page can (an operator's grant, a large
   * organization, a registered application).
   */
  appServer: { baseUrl: string; database: { kind: "sqlite"; url: string; file: string } };
}

/** The browser suite's server settings, on top of the test servers' usual ones. */
export const E2E_ENV = {
  // Cheap test-only password hashing (ADR 032); the server accepts it only with a loopback BASE_URL.
  AUTH_TEST_PASSWORD_HASHING: "fast",
  AUTH_SECRET: "e2e-secret-that-is-long-enough-for-hmac-0123456789",
  AUTH_RATE_LIMIT: "off",
  // Mail goes to the SMTP server of global-setup.ts; deletion asks for the e-mailed confirmation.
  SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
  AUTH_DELETE_ACCOUNT: "email",
  // "Continue with Test SSO": the OpenID provider of global-setup.ts.
  OIDC_ISSUER: `http://localhost:${E2E_IDP_PORT}`,
  OIDC_CLIENT_ID: "latchkey-e2e",
  OIDC_CLIENT_SECRET: "latchkey-e2e-secret",
  OIDC_PROVIDER_NAME: "Test SSO",
};

/**
 * Chromium logs every 4xx/5xx response as a console error ("Failed to load resource"). A form submission the
 * server refuses on purpose (400 validation, 401 wrong password, 422 user exists) is the page working as
 * designed, so those are judged by status instead: any failed GET (a missing script, stylesheet or favicon,
 * a broken loader) and any 5xx still fail the test.
 */
const NETWORK_LOG = /^Failed to load resource: the server responded with a status of \d+/;

function failOnErrors(context: BrowserContext, errors: string[]): void {
  context.on("console", (message) => {
    if (message.type() !== "error" || NETWORK_LOG.test(message.text())) return;
    errors.push(`console.error on ${message.page()?.url() ?? "?"}: ${message.text()}`);
  });
  context.on("weberror", (error) => errors.push(`uncaught error on ${error.page()?.url() ?? "?"}: ${error.error().message}`));
  context.on("response", (response) => {
    const status = response.status();
    const refusedSubmission = response.request().method() !== "GET" && status < 500;
    if (status >= 400 && !refusedSubmission) errors.push(`${status} for ${response.request().method()} ${response.url()}`);
  });
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  appServerEnv: [{}, { scope: "worker", option: true }],
  appServer: [
    async ({ appServerEnv }, use) => {
      const database = await createScratchDatabase("sqlite", "latchkey_e2e");
      // A start-up takes ~1 s; on two cores shared with the API suite it has taken over 20.
      const server = await spawnServer({ env: { ...E2E_ENV, ...appServerEnv, DATABASE_URL: database.url }, timeoutMs: 60_000 });
      await use({ baseUrl: server.baseUrl, database: { kind: "sqlite", url: database.url, file: database.url.replace(/^file:/, "") } });
      await server.stop();
      await database.drop();
    },
    { scope: "worker", timeout: 90_000 },
  ],

  baseURL: async ({ appServer }, use) => {
    await use(appServer.baseUrl);
  },

  consoleErrors: [
    async ({ context }, use) => {
      const errors: string[] = [];
      failOnErrors(context, errors);
      await use(errors);
      expect(errors, "the pages logged errors").toEqual([]);
    },
    { auto: true },
  ],

  user: async ({ request, baseURL }, use) => {
    const user = { name: "Ada Lovelace", email: uniqueEmail("user"), password: PASSWORD };
    const signUp = await request.post("/api/auth/sign-up/email", { data: user });
    expect(signUp.status(), await signUp.text()).toBe(200);
    // Sign-up also signs in; end that session so the story starts with no sessions at all.
    const signOut = await request.post("/api/auth/sign-out", { headers: { Origin: baseURL! } });
    expect(signOut.status(), await signOut.text()).toBe(200);
    await use(user);
  },

  openContext: async ({ browser, baseURL, javaScriptEnabled, consoleErrors }, use) => {
    const opened: BrowserContext[] = [];
    await use(async (options = {}) => {
      const context = await browser.newContext({ baseURL, javaScriptEnabled, ...options });
      opened.push(context);
      failOnErrors(context, consoleErrors);
      return { context, page: await context.newPage() };
    });
    for (const context of opened) await context.close();
  },
});

export async function signUp(page: Page, user: TestUser): Promise<void> {
  await page.goto("/sign-up");
  await page.getByLabel("Name", { exact: true }).fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
}

/** Fills and submits the sign-in form on the current page (go to /sign-in first, with any redirectTo). */
export async function submitSignIn(
  page: Page,
  credentials: { email: string; password: string },
  options: { rememberMe?: boolean } = {},
): Promise<void> {
  await page.getByLabel("Email").fill(credentials.email);
  await page.getByLabel("Password").fill(credentials.password);
  await page.getByLabel("Remember me").setChecked(options.rememberMe ?? true);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

export async function signIn(page: Page, credentials: { email: string; password: string }, options: { rememberMe?: boolean } = {}) {
  await page.goto("/sign-in");
  await submitSignIn(page, credentials, options);
  await expect(page).toHaveURL("/account");
}

export async function sessionCookie(context: BrowserContext): Promise<Cookie | undefined> {
  return (await context.cookies()).find((cookie) => cookie.name === SESSION_COOKIE);
}

/** The account page shows who is signed in (and passes axe). */
export async function expectSignedInAs(page: Page, user: { name: string; email: string }): Promise<void> {
  await expect(page).toHaveURL("/account");
  await expect(page.getByRole("heading", { name: "Your account", level: 1 })).toBeVisible();
  await expect(page.getByTestId("account-name")).toHaveText(user.name);
  await expect(page.getByTestId("account-email")).toHaveText(user.email);
  await expectNoAxeViolations(page, "account overview");
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** A field's error is next to it and wired up for assistive technology (its hint, if any, is read too). */
export async function expectFieldError(page: Page, label: string, message: string): Promise<void> {
  const input = page.getByLabel(label, { exact: true });
  await expect(input).toHaveAttribute("aria-invalid", "true");
  const describedBy = (await input.getAttribute("aria-describedby")) ?? "";
  expect(describedBy, `${label} has aria-describedby`).toBeTruthy();
  const texts = await Promise.all(describedBy.split(/\s+/).map((id) => page.locator(`[id="${id}"]`).innerText()));
  expect(texts, `${label}'s descriptions`).toContain(message);
  await expect(input).toHaveAccessibleDescription(new RegExp(escapeRegExp(message)));
  await expectNoAxeViolations(page, `error on ${label}`);
}

/**
 * The form's error summary lists the messages, has focus (so it is read first, with or without JavaScript),
 * and the page title starts with "Error: ".
 */
export async function expectErrorSummary(page: Page, messages: string[]): Promise<void> {
  const summary = page.locator(".error-summary");
  await expect(summary).toBeVisible();
  await expect(summary.getByRole("heading", { name: "There is a problem" })).toBeVisible();
  for (const message of messages) await expect(summary).toContainText(message);
  await expect(summary).toBeFocused();
  await expect(page).toHaveTitle(/^Error: /);
  await expectNoAxeViolations(page, "error summary");
}

/** A confirmation at the top of the page, focused, so it is in view and read after a post. */
export async function expectStatus(page: Page, text: string | RegExp): Promise<void> {
  const status = page.getByRole("status");
  await expect(status).toContainText(text);
  await expect(status).toBeFocused();
  await expect(status).toBeInViewport();
  await expectNoAxeViolations(page, "status");
}

/**
 * Resolves once React has hydrated the page's form (React marks the elements it owns), so a submission is
 * handled by the app's script rather than by the browser's native form post.
 */
export async function waitForHydration(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const form = document.querySelector("main form");
    return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
  }, undefined, { timeout: 10_000 });
}
