// The Activity page and the admin console, in every language (tests/e2e/every-language/check.ts): the activity of an
// account with sign-ins from another device, a run of wrong passwords, a sign-out and the other devices signed out
// (enough to page), the "This wasn't me" question about one sign-in; and, the reader made an admin as the console's
// tests make one, the accounts list, another account's page with its sessions and events, and the applications.
import { expect, request as playwright, type APIRequestContext } from "@playwright/test";
import { makeAdmin } from "../admin-steps";
import { PASSWORD } from "../fixtures";
import type { OpenContext, PageInEveryLanguage } from "./pages";

const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";
let counter = 0;
const unique = () => `${Date.now().toString(36)}${++counter}${Math.random().toString(36).slice(2, 6)}`;

/** Another device, its own cookies: what it does is "from a new device" on the account's pages. */
const otherDevice = (baseURL: string) => playwright.newContext({ baseURL, userAgent: FIREFOX_ON_WINDOWS, extraHTTPHeaders: { Origin: baseURL } });

/** Sign-ins on the reader's account from another device: right ones, wrong passwords (one run), then a sign-out. */
async function activityElsewhere({ page, user, baseURL }: OpenContext, right: number) {
  const device = await otherDevice(baseURL);
  try {
    for (let i = 0; i < right; i++) {
      expect((await device.post("/api/auth/sign-in/email", { data: { email: user.email, password: PASSWORD } })).status()).toBe(200);
    }
    // Newest, so on the first page: one run of wrong passwords.
    for (let i = 0; i < 3; i++) {
      expect((await device.post("/api/auth/sign-in/email", { data: { email: user.email, password: "not the password at all" } })).status()).toBe(401);
    }
    expect((await device.post("/api/auth/sign-out", { data: {} })).status()).toBe(200);
  } finally {
    await device.dispose();
  }
  // The reader ends the other devices' sessions: "Signed out on the other devices".
  expect((await page.request.post("/api/auth/revoke-other-sessions", { data: {}, headers: { Origin: baseURL } })).status()).toBe(200);
}

/** A second account, signed up on another device (a session the console lists), in the reader's console. */
async function colleague(baseURL: string): Promise<{ id: string; name: string; email: string }> {
  const device: APIRequestContext = await otherDevice(baseURL);
  try {
    const person = { name: "Grace Hopper", email: `grace-${unique()}@example.com`, password: PASSWORD };
    const answer = await device.post("/api/auth/sign-up/email", { data: person });
    expect(answer.status(), await answer.text()).toBe(200);
    // A wrong password and a sign-in more: events in the console's list.
    await device.post("/api/auth/sign-in/email", { data: { email: person.email, password: "not the password at all" } });
    expect((await device.post("/api/auth/sign-in/email", { data: { email: person.email, password: PASSWORD } })).status()).toBe(200);
    return { id: (await answer.json()).user.id, name: person.name, email: person.email };
  } finally {
    await device.dispose();
  }
}

/** The reader, an admin as `npm run admin -- grant` makes one (the role is read at each request). */
async function asAdmin(context: OpenContext) {
  makeAdmin(context.appServer.database.file, context.user.email);
  await context.page.goto("/admin");
  await expect(context.page.locator("#admin-heading")).toBeVisible();
}

const grace = { name: "Grace Hopper" };
/** The test's own API calls sign in as "Node.js": a program's name, the same in every language. */
const NODE = /^Node\.js,?$/;

export const adminPages: PageInEveryLanguage[] = [
  {
    name: "activity, paged, with a run of wrong passwords and a new device",
    async open(context) {
      await activityElsewhere(context, 18);
      // Failed sign-ins are written after their answer: wait until the run shows.
      await expect(async () => {
        await context.page.goto("/account/activity");
        await expect(context.page.locator(".activity-run")).toHaveCount(1);
      }).toPass({ timeout: 15_000 });
      await expect(context.page.getByTestId("events-shown")).toBeVisible();
      return "/account/activity";
    },
    kept: [NODE],
  },
  {
    name: "activity, the older page",
    async open(context) {
      await activityElsewhere(context, 18);
      await context.page.goto("/account/activity");
      return (await context.page.locator('nav.pager a[rel="next"]').getAttribute("href"))!;
    },
    kept: [NODE],
  },
  {
    name: "activity, “This wasn't me” about one sign-in",
    async open(context) {
      await activityElsewhere(context, 1);
      await context.page.goto("/account/activity");
      const href = (await context.page.locator("a.not-you").first().getAttribute("href"))!;
      return href.split("#")[0];
    },
    kept: [NODE],
  },
  {
    name: "admin: the accounts",
    async open(context) {
      await colleague(context.baseURL);
      await asAdmin(context);
      return "/admin";
    },
    kept: [grace.name, /^grace-.*@example\.com$/],
  },
  {
    name: "admin: an account with sessions and events",
    async open(context) {
      const person = await colleague(context.baseURL);
      await asAdmin(context);
      return `/admin/users/${encodeURIComponent(person.id)}`;
    },
    kept: [grace.name],
  },
  {
    name: "admin: the role question",
    async open(context) {
      const person = await colleague(context.baseURL);
      await asAdmin(context);
      return `/admin/users/${encodeURIComponent(person.id)}?set-role=admin`;
    },
    kept: [grace.name],
  },
  {
    name: "admin: the applications, one registered",
    async open(context) {
      await asAdmin(context);
      const { page } = context;
      const name = `Wiki ${unique()}`;
      await page.goto("/admin/applications");
      await page.getByLabel("Name").fill(name);
      await page.getByLabel("Redirect addresses").fill("https://wiki.example.com/callback");
      await page.getByLabel("Addresses after signing out (optional)").fill("https://wiki.example.com/bye");
      await page.getByRole("button", { name: "Register" }).click();
      await expect(page.getByTestId("registered-client-id")).toBeVisible();
      return "/admin/applications";
    },
    kept: [/^Wiki /],
  },
];
