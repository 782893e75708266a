// npm run screenshots: every page, in light and dark, at desktop and phone size, written to screenshots/
// (git-ignored), so a reviewer can look at the whole product in a minute. Builds if app/ changed, runs the app
// on a throw-away SQLite database (mail goes to the development outbox) and drives Chromium with Playwright.
//   npm run screenshots [-- --out <folder>] [-- --only <name-substring>]
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import { ensureBuilt } from "./lib/build.mjs";
import { projectRoot } from "./lib/database-url.mjs";
import { createScratchDatabase } from "./lib/scratch-database.mjs";
import { spawnServer } from "./lib/spawn-server.mjs";

const { values: args } = parseArgs({
  options: { out: { type: "string", default: path.join(projectRoot, "screenshots") }, only: { type: "string" } },
});

const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const SCHEMES = ["light", "dark"];
const PASSWORD = "correct horse battery staple";
const EXECUTABLE = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/**
 * The states to capture: a name, whether it needs the signed-in user, and how to reach it from a fresh page
 * (JavaScript off, as many visitors see it; form errors are reached by submitting).
 */
const STATES = [
  { name: "home", go: (page) => page.goto("/") },
  { name: "sign-in", go: (page) => page.goto("/sign-in") },
  {
    name: "sign-in-error",
    go: async (page, user) => {
      await page.goto("/sign-in");
      await page.getByLabel("Email").fill(user.email);
      await page.getByLabel("Password").fill("not the password");
      await page.getByRole("button", { name: "Sign in" }).click();
    },
  },
  { name: "sign-up", go: (page) => page.goto("/sign-up") },
  {
    name: "sign-up-error",
    go: async (page, user) => {
      await page.goto("/sign-up");
      await page.getByLabel("Name", { exact: true }).fill("Ada");
      await page.getByLabel("Email").fill(user.email);
      await page.getByLabel("Password").fill("short");
      await page.getByRole("button", { name: "Sign up" }).click();
    },
  },
  {
    // Issue 27: a username refused with the rule in words.
    name: "sign-up-username-error",
    go: async (page) => {
      await page.goto("/sign-up");
      await page.getByLabel("Name", { exact: true }).fill("Grace");
      await page.getByLabel("Email").fill("grace@example.com");
      await page.getByLabel("Username (optional)").fill("grace hopper");
      await page.getByLabel("Password").fill(PASSWORD);
      await page.getByRole("button", { name: "Sign up", exact: true }).click();
    },
  },
  {
    name: "sign-in-username-error",
    go: async (page) => {
      await page.goto("/sign-in");
      await page.getByLabel("Email or username").fill("ada_lovelace");
      await page.getByLabel("Password").fill("not the password");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
    },
  },
  { name: "forgot-password", go: (page) => page.goto("/forgot-password") },
  {
    name: "forgot-password-sent",
    go: async (page, user) => {
      await page.goto("/forgot-password");
      await page.getByLabel("Email").fill(user.email);
      await page.getByRole("button", { name: "Send reset link" }).click();
    },
  },
  { name: "reset-password-bad-link", go: (page) => page.goto("/reset-password?token=expired") },
  { name: "email-verified-direct", go: (page) => page.goto("/email-verified") },
  { name: "email-verified-error", go: (page) => page.goto("/email-verified?error=token_expired") },
  { name: "auth-error", go: (page) => page.goto("/api/auth/error?error=state_not_found") },
  { name: "not-found", go: (page) => page.goto("/acount") },
  // A mailed link cut short by a mail client (issue 27): the page, not the API's JSON.
  { name: "verify-link-cut", go: (page) => page.goto("/api/auth/verify-email?token=eyJhbGciOiJIUzI1NiJ9.eyJ1c2") },
  { name: "account-deleted", go: (page) => page.goto("/account-deleted") },
  { name: "account-deleted-error", go: (page) => page.goto("/account-deleted?error=unauthorized") },
  { name: "dev-outbox", go: (page) => page.goto("/dev/outbox") },
  // The step after a sign-in code made an account (shown here for the signed-in user).
  { name: "welcome", signedIn: true, go: (page) => page.goto("/welcome") },
  { name: "account", signedIn: true, go: (page) => page.goto("/account") },
  { name: "account-profile", signedIn: true, go: (page) => page.goto("/account/profile") },
  {
    name: "account-profile-saved",
    signedIn: true,
    go: async (page) => {
      await page.goto("/account/profile");
      await page.getByRole("button", { name: "Save profile" }).click();
    },
  },
  { name: "account-security", signedIn: true, go: (page) => page.goto("/account/security") },
  {
    name: "account-security-error",
    signedIn: true,
    go: async (page) => {
      await page.goto("/account/security");
      await page.getByLabel("Current password").fill("wrong");
      await page.getByLabel("New password").fill("short");
      await page.getByRole("button", { name: "Change password" }).click();
    },
  },
  { name: "account-sessions", signedIn: true, go: (page) => page.goto("/account/sessions") },
  {
    name: "account-sessions-signed-out-others",
    signedIn: true,
    go: async (page, user) => {
      // Another device first, so there is one to sign out.
      await fetch(new URL("/api/auth/sign-in/email", page.url()), {
        method: "POST",
        headers: { "content-type": "application/json", origin: new URL(page.url()).origin },
        body: JSON.stringify({ email: user.email, password: user.password }),
      });
      await page.goto("/account/sessions");
      await page.getByRole("button", { name: "Sign out of all other devices" }).click();
      await page.waitForURL("**/account/sessions");
    },
  },
  { name: "account-activity", signedIn: true, go: (page) => page.goto("/account/activity") },
  { name: "account-activity-confirm", signedIn: true, go: (page) => page.goto("/account/activity?confirm") },
  { name: "account-delete", signedIn: true, go: (page) => page.goto("/account/delete") },
  // Unverified: the page says why no invitation is listed.
  { name: "organizations", signedIn: true, go: (page) => page.goto("/organizations") },
  {
    name: "organization-only-owner",
    signedIn: true,
    go: async (page) => {
      const slug = `solo-${Date.now().toString(36)}`;
      await page.goto("/organizations");
      await page.getByLabel("Name", { exact: true }).fill("Solo Studio");
      await page.getByLabel("Slug").fill(slug);
      await page.getByRole("button", { name: "Create organization" }).click();
      await page.waitForURL(`**/organizations/${slug}`);
      await page.goto(`/organizations/${slug}`);
    },
  },
  {
    name: "form-too-large",
    go: async (page) => {
      await page.goto("/sign-in");
      await page.route("**/sign-in", (route) => route.continue({ postData: `email=${"x".repeat(70 * 1024)}` }));
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.unrouteAll();
    },
  },
  {
    name: "method-not-allowed",
    go: async (page) => {
      await page.goto("/sign-in");
      await page.route("**/sign-in", (route) => route.continue({ url: new URL("/email-verified", page.url()).toString() }));
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await page.unrouteAll();
    },
  },
];

async function main() {
  ensureBuilt();
  const database = await createScratchDatabase("sqlite", "latchkey_screenshots");
  const server = await spawnServer({
    env: { DATABASE_URL: database.url, AUTH_SECRET: "screenshots-secret-that-is-long-enough-0123456789", AUTH_RATE_LIMIT: "off" },
  });
  const browser = await chromium.launch({ executablePath: EXECUTABLE, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    rmSync(args.out, { recursive: true, force: true });
    mkdirSync(args.out, { recursive: true });
    const user = { name: "Ada Lovelace", email: "ada.lovelace@example.com", password: PASSWORD };
    const signUp = await fetch(`${server.baseUrl}/api/auth/sign-up/email`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: server.baseUrl },
      body: JSON.stringify(user),
    });
    if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status} ${await signUp.text()}`);

    let count = 0;
    for (const [sizeName, viewport] of Object.entries(SIZES)) {
      for (const colorScheme of SCHEMES) {
        const context = await browser.newContext({ baseURL: server.baseUrl, viewport, colorScheme, javaScriptEnabled: false });
        const page = await context.newPage();
        let signedIn = false;
        for (const state of STATES) {
          if (args.only && !state.name.includes(args.only)) continue;
          if (state.signedIn && !signedIn) {
            await page.goto("/sign-in");
            await page.getByLabel("Email").fill(user.email);
            await page.getByLabel("Password").fill(user.password);
            await page.getByRole("button", { name: "Sign in" }).click();
            await page.waitForURL("**/account");
            signedIn = true;
          }
          if (!state.signedIn && signedIn) {
            await context.clearCookies();
            signedIn = false;
          }
          await state.go(page, user);
          const file = path.join(args.out, `${state.name}-${colorScheme}-${sizeName}.png`);
          await page.screenshot({ path: file, fullPage: true });
          count += 1;
        }
        await context.close();
      }
    }
    console.log(`[screenshots] ${count} screenshots in ${path.relative(process.cwd(), args.out) || "."}`);
  } finally {
    await browser.close();
    await server.stop();
    await database.drop();
  }
}

await main();
