// npm run screenshots: every page, in light and dark, at desktop and phone size, written to screenshots/
// (git-ignored), so a reviewer can look at the whole product in a minute. Builds if app/ changed, runs the app
// on a throw-away SQLite database (mail goes to the development outbox) and drives Chromium with Playwright.
//   npm run screenshots [-- --out <folder>] [-- --only <name-substring>] [-- --languages en,de,ar,he]
// English is captured at desktop and phone size; German, Arabic and Hebrew (issue 44: long compounds, right to left)
// at desktop and at 320 px, each in a folder of its own. States find fields and buttons by name, not by their words,
// so the same steps work in every language.
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { chromium } from "@playwright/test";
import Database from "better-sqlite3";
import { ensureBuilt } from "./lib/build.mjs";
import { projectRoot } from "./lib/database-url.mjs";
import { createScratchDatabase } from "./lib/scratch-database.mjs";
import { spawnServer } from "./lib/spawn-server.mjs";

const { values: args } = parseArgs({
  options: {
    out: { type: "string", default: path.join(projectRoot, "screenshots") },
    only: { type: "string" },
    languages: { type: "string", default: "en,de,ar,he" },
  },
});

const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
/** Other languages at the narrowest phone a page must fit (no sideways scrolling at 320 px). */
const LANGUAGE_SIZES = { desktop: SIZES.desktop, narrow: { width: 320, height: 700 } };
const SCHEMES = ["light", "dark"];
const PASSWORD = "correct horse battery staple";
const EXECUTABLE = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** A field of the page's main content, by its name (the same in every language). */
const field = (page, name) => page.locator(`main [name="${name}"]`).first();
/** The first form's submit button in the main content (sign-in's "Sign in", sign-up's "Sign up"…). */
const submit = (page) => page.locator("main form").first().locator('button[type="submit"]').first();
/** A button by the intent it posts. */
const intent = (page, value) => page.locator(`main button[name="intent"][value="${value}"]`).first();

/** The scratch database's file, for the states that set up an application straight in it (issue 41). */
let databaseFile = "";
/** The console's subject (issue 41): the account Ada, an admin, looks at and acts as. */
let memberId = "";
const TEAM_WIKI = { id: "team-wiki", name: "Team Wiki", redirectUri: "https://wiki.example.com/callback" };

/** Statements on the scratch database (SQLite), as `npm run oidc -- add-client` and "Allow" would store rows. */
function inDatabase(work) {
  const db = new Database(databaseFile);
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** Team Wiki, a public client (PKCE), registered once. */
function registerTeamWiki() {
  inDatabase((db) =>
    db
      .prepare(`INSERT OR IGNORE INTO "oidcClient" ("id", "name", "secretHash", "redirectUris", "postLogoutRedirectUris", "trusted", "createdAt") VALUES (?, ?, NULL, ?, '[]', 0, ?)`)
      .run(TEAM_WIKI.id, TEAM_WIKI.name, JSON.stringify([TEAM_WIKI.redirectUri]), Date.now()),
  );
}

/** Team Wiki's sign-in request, as the application would send the browser. */
function authorizeUrl() {
  const challenge = createHash("sha256").update(randomBytes(32).toString("base64url")).digest("base64url");
  const query = { client_id: TEAM_WIKI.id, redirect_uri: TEAM_WIKI.redirectUri, response_type: "code", scope: "openid profile email", code_challenge: challenge, code_challenge_method: "S256", state: "s", nonce: "n" };
  return `/api/auth/oauth2/authorize?${new URLSearchParams(query)}`;
}

/** The user's remembered "Allow" for Team Wiki, used an hour ago (what the applications page lists). */
function allowTeamWiki(email) {
  inDatabase((db) => {
    const { id } = db.prepare(`SELECT "id" FROM "user" WHERE "email" = ?`).get(email);
    const now = Date.now();
    db.prepare(
      `INSERT OR IGNORE INTO "oidcConsent" ("id", "userId", "clientId", "scopes", "grantId", "tokensIssuedAt", "lastUsedAt", "createdAt", "updatedAt") VALUES (?, ?, ?, 'email openid profile', ?, ?, ?, ?, ?)`,
    ).run(`screenshots-consent-${id}`, id, TEAM_WIKI.id, `screenshots-grant-${id}`, now - 3_600_000, now - 3_600_000, now - 3 * 86_400_000, now);
  });
}

/** Sign-ins through the API from other devices, done once however many sizes and schemes are captured. */
const done = new Set();
async function signInsElsewhere(page, user, key, { wrong = 0, right = 0 }) {
  if (done.has(`${user.email}:${key}`)) return;
  done.add(`${user.email}:${key}`);
  const origin = new URL(page.url()).origin;
  const post = (password) =>
    fetch(new URL("/api/auth/sign-in/email", origin), { method: "POST", headers: { "content-type": "application/json", origin }, body: JSON.stringify({ email: user.email, password }) });
  for (let i = 0; i < wrong; i++) await post("not the password");
  for (let i = 0; i < right; i++) await post(user.password);
}

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
      await field(page, "email").fill(user.email);
      await field(page, "password").fill("not the password");
      await submit(page).click();
    },
  },
  { name: "sign-up", go: (page) => page.goto("/sign-up") },
  {
    name: "sign-up-error",
    go: async (page, user) => {
      await page.goto("/sign-up");
      await field(page, "name").fill("Ada");
      await field(page, "email").fill(user.email);
      await field(page, "password").fill("short");
      await submit(page).click();
    },
  },
  {
    // Issue 27: a username refused with the rule in words.
    name: "sign-up-username-error",
    go: async (page) => {
      await page.goto("/sign-up");
      await field(page, "name").fill("Grace");
      await field(page, "email").fill("grace@example.com");
      await field(page, "username").fill("grace hopper");
      await field(page, "password").fill(PASSWORD);
      await submit(page).click();
    },
  },
  {
    name: "sign-in-username-error",
    go: async (page) => {
      await page.goto("/sign-in");
      await field(page, "email").fill("ada_lovelace");
      await field(page, "password").fill("not the password");
      await submit(page).click();
    },
  },
  { name: "forgot-password", go: (page) => page.goto("/forgot-password") },
  {
    name: "forgot-password-sent",
    go: async (page, user) => {
      await page.goto("/forgot-password");
      await field(page, "email").fill(user.email);
      await submit(page).click();
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
      await submit(page).click();
    },
  },
  { name: "account-security", signedIn: true, go: (page) => page.goto("/account/security") },
  {
    name: "account-security-error",
    signedIn: true,
    go: async (page) => {
      await page.goto("/account/security");
      await field(page, "currentPassword").fill("wrong");
      await field(page, "newPassword").fill("short");
      await page.locator("main form:has([name=newPassword]) button[type=submit]").first().click();
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
      await intent(page, "revoke-other-sessions").click();
      await page.waitForURL("**/account/sessions");
    },
  },
  { name: "account-activity", signedIn: true, go: (page) => page.goto("/account/activity") },
  { name: "account-activity-confirm", signedIn: true, go: (page) => page.goto("/account/activity?confirm") },
  // Issue 41: a burst of wrong passwords as one row; the older page with where it sits.
  {
    name: "account-activity-grouped",
    signedIn: true,
    go: async (page, user) => {
      await signInsElsewhere(page, user, "wrong", { wrong: 4 });
      await page.goto("/account/activity");
    },
  },
  {
    name: "account-activity-older",
    signedIn: true,
    go: async (page, user) => {
      await signInsElsewhere(page, user, "many", { right: 21 });
      await page.goto("/account/activity");
      await page.locator('main a[href*="cursor="]').last().click();
      await page.waitForURL("**/account/activity?cursor=*");
    },
  },
  // Issue 41: an application's sign-in request — signed out, the consent page, an expired request, and revoking.
  { name: "sign-in-for-application", go: (page) => page.goto(authorizeUrl()) },
  {
    name: "consent",
    signedIn: true,
    go: async (page) => {
      // Asked each time: a consent remembered by an earlier size's state would send the browser on to the application.
      inDatabase((db) => db.prepare(`DELETE FROM "oidcConsent" WHERE "clientId" = ?`).run(TEAM_WIKI.id));
      await page.goto(authorizeUrl());
    },
  },
  { name: "consent-expired", go: (page) => page.goto("/oauth2/interaction/no-longer-open") },
  {
    name: "account-applications-confirm",
    signedIn: true,
    go: async (page, user) => {
      allowTeamWiki(user.email);
      await page.goto(`/account/applications?revoke=${TEAM_WIKI.id}`);
    },
  },
  { name: "account-delete", signedIn: true, go: (page) => page.goto("/account/delete") },
  // Unverified: the page says why no invitation is listed.
  { name: "organizations", signedIn: true, go: (page) => page.goto("/organizations") },
  {
    name: "organization-only-owner",
    signedIn: true,
    go: async (page) => {
      const slug = `solo-${Date.now().toString(36)}`;
      await page.goto("/organizations");
      await field(page, "name").fill("Solo Studio");
      await field(page, "slug").fill(slug);
      await page.locator("main form:has([name=slug]) button[type=submit]").first().click();
      await page.waitForURL(`**/organizations/${slug}`);
      await page.goto(`/organizations/${slug}`);
    },
  },
  // The console and impersonation (issue 41): Ada is an admin; Mary is the account she looks at and acts as. The
  // acting states come last of the signed-in ones: they leave the browser acting as Mary.
  { name: "admin-accounts", signedIn: true, go: (page) => page.goto("/admin") },
  { name: "admin-accounts-no-match", signedIn: true, go: (page) => page.goto("/admin?q=nobody-by-this-name") },
  { name: "admin-user", signedIn: true, go: (page) => page.goto(`/admin/users/${memberId}`) },
  { name: "admin-user-role-question", signedIn: true, go: (page) => page.goto(`/admin/users/${memberId}?set-role=admin`) },
  {
    name: "impersonating-security",
    signedIn: true,
    go: async (page) => {
      await page.goto(`/admin/users/${memberId}`);
      await intent(page, "impersonate").click();
      await page.waitForURL("**/account");
      await page.goto("/account/security");
    },
  },
  { name: "impersonating-not-found", signedIn: true, go: (page) => page.goto("/no-such-page") },
  {
    name: "form-too-large",
    go: async (page) => {
      await page.goto("/sign-in");
      await page.route("**/sign-in", (route) => route.continue({ postData: `email=${"x".repeat(70 * 1024)}` }));
      await submit(page).click();
      await page.unrouteAll();
    },
  },
  {
    name: "method-not-allowed",
    go: async (page) => {
      await page.goto("/sign-in");
      await page.route("**/sign-in", (route) => route.continue({ url: new URL("/email-verified", page.url()).toString() }));
      await submit(page).click();
      await page.unrouteAll();
    },
  },
];

async function signUpThroughApi(baseUrl, account) {
  const answer = await fetch(`${baseUrl}/api/auth/sign-up/email`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: baseUrl },
    body: JSON.stringify(account),
  });
  if (!answer.ok) throw new Error(`sign-up failed: ${answer.status} ${await answer.text()}`);
}

async function main() {
  ensureBuilt();
  const database = await createScratchDatabase("sqlite", "latchkey_screenshots");
  databaseFile = database.url.replace(/^file:/, "");
  const server = await spawnServer({
    env: { DATABASE_URL: database.url, AUTH_SECRET: "screenshots-secret-that-is-long-enough-0123456789", AUTH_RATE_LIMIT: "off" },
  });
  const browser = await chromium.launch({ executablePath: EXECUTABLE, args: ["--no-sandbox", "--disable-gpu"] });
  try {
    rmSync(args.out, { recursive: true, force: true });
    mkdirSync(args.out, { recursive: true });
    const languages = args.languages.split(",").map((tag) => tag.trim()).filter(Boolean);
    registerTeamWiki();
    const member = { name: "Mary Member", email: "mary.member@example.com", password: PASSWORD };
    await signUpThroughApi(server.baseUrl, member);
    memberId = inDatabase((db) => db.prepare(`SELECT "id" FROM "user" WHERE "email" = ?`).get(member.email).id);

    let count = 0;
    for (const language of languages) {
      // Ada in each language: her saved language is the one her signed-in pages come in; she is an admin.
      const user = { name: "Ada Lovelace", email: language === "en" ? "ada.lovelace@example.com" : `ada.lovelace+${language}@example.com`, password: PASSWORD };
      await signUpThroughApi(server.baseUrl, { ...user, locale: language });
      inDatabase((db) => db.prepare(`UPDATE "user" SET "role" = 'admin' WHERE "email" = ?`).run(user.email));
      const folder = language === "en" ? args.out : path.join(args.out, language);
      mkdirSync(folder, { recursive: true });
      for (const [sizeName, viewport] of Object.entries(language === "en" ? SIZES : LANGUAGE_SIZES)) {
        for (const colorScheme of SCHEMES) {
          const context = await browser.newContext({ baseURL: server.baseUrl, viewport, colorScheme, javaScriptEnabled: false });
          // Signed out, the picker's cookie says the language (as if chosen at the foot of a page).
          const languageCookie = { name: "latchkey.language", value: language, url: server.baseUrl };
          await context.addCookies([languageCookie]);
          const page = await context.newPage();
          let signedIn = false;
          for (const state of STATES) {
            if (args.only && !state.name.includes(args.only)) continue;
            if (state.signedIn && !signedIn) {
              await page.goto("/sign-in");
              await field(page, "email").fill(user.email);
              await field(page, "password").fill(user.password);
              await submit(page).click();
              await page.waitForURL("**/account");
              signedIn = true;
            }
            if (!state.signedIn && signedIn) {
              await context.clearCookies();
              await context.addCookies([languageCookie]);
              signedIn = false;
            }
            await state.go(page, user);
            await page.screenshot({ path: path.join(folder, `${state.name}-${colorScheme}-${sizeName}.png`), fullPage: true });
            count += 1;
          }
          await context.close();
        }
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
