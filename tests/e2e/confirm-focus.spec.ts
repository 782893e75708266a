// Issue 41, with JavaScript on a 320 px phone: a confirmation step reached by a link (Leave, Remove member,
// Remove application) is a client navigation, and its question takes the focus with its button on screen; the
// switcher's "Switched to …" is brought into view and the switcher says what the active organization is; and a
// notice meant for a page without a notice area (the consent page) is not shown later elsewhere.
import Database from "better-sqlite3";
import type { Page } from "@playwright/test";
import { authorizationRequest, registerClient, relyingParty } from "../support/oidc-clients";
import { makeAdmin, newAccount } from "./admin-steps";
import { expect, expectNoAxeViolations, PASSWORD, signIn, signUp, test, uniqueEmail, waitForHydration } from "./fixtures";

// bypassCSP: axe-core is injected as a script the page's nonce-based policy would block.
test.use({ javaScriptEnabled: true, bypassCSP: true, viewport: { width: 320, height: 640 } });

/** Signs `page` up as a new owner and creates an organization through its page; returns the slug. */
async function ownerWithOrganization(page: Page, name: string): Promise<string> {
  const slug = `${name.toLowerCase().replace(/[^a-z0-9]+/g, "-")}-${Date.now().toString(36)}`;
  await signUp(page, { name: "Olive Owner", email: uniqueEmail("owner"), password: PASSWORD });
  await expect(page).toHaveURL("/account");
  await page.goto("/organizations");
  await page.getByLabel("Name", { exact: true }).fill(name);
  await page.getByLabel("Slug").fill(slug);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}`);
  return slug;
}

/** Makes the account a member of the organization straight in the database, joined like its owner. */
function addMember(databaseFile: string, slug: string, email: string) {
  const db = new Database(databaseFile);
  try {
    const inserted = db
      .prepare(
        `INSERT INTO "member" ("id", "organizationId", "userId", "role", "createdAt")
         SELECT ?, m."organizationId", (SELECT "id" FROM "user" WHERE "email" = ?), 'member', m."createdAt"
         FROM "member" m JOIN "organization" o ON o."id" = m."organizationId" WHERE o."slug" = ? LIMIT 1`,
      )
      .run(`e2e-member-${Date.now().toString(36)}`, email, slug);
    expect(inserted.changes).toBe(1);
  } finally {
    db.close();
  }
}

test("Leave and Remove member: the question takes the focus and its button is on screen", async ({ page, request, baseURL, appServer, openContext }) => {
  const slug = await ownerWithOrganization(page, "Focus Co");
  const member = await newAccount(request, baseURL!, "Mona Member");
  addMember(appServer.database.file, slug, member.email);

  const { page: mona } = await openContext();
  await signIn(mona, member);
  await mona.goto(`/organizations/${slug}`);
  await waitForHydration(mona);
  await mona.getByRole("link", { name: "Leave organization" }).click();
  const leave = mona.getByRole("group", { name: "Leave Focus Co?" });
  await expect(leave).toBeFocused();
  await expect(mona.getByRole("button", { name: "Leave organization" })).toBeInViewport();
  await expectNoAxeViolations(mona, "leave question, phone, JS");

  await page.reload();
  await waitForHydration(page);
  await page.getByRole("link", { name: `Remove ${member.email}` }).click();
  await expect(page.getByRole("group", { name: `Remove ${member.email} from Focus Co?` })).toBeFocused();
  await expect(page.getByRole("button", { name: `Remove ${member.email}` })).toBeInViewport();
});

test("Remove application: the question takes the focus", async ({ page, request, baseURL, appServer }) => {
  const admin = await newAccount(request, baseURL!, "Focus Admin");
  makeAdmin(appServer.database.file, admin.email);
  await signIn(page, admin);
  await page.goto("/admin/applications");
  await waitForHydration(page);
  await page.getByLabel("Name").fill("Focus Wiki");
  await page.getByLabel("Redirect addresses").fill("https://wiki.example.com/callback");
  await page.getByRole("button", { name: "Register" }).click();
  await expect(page.getByTestId("application-row").filter({ hasText: "Focus Wiki" })).toHaveCount(1);
  await page.getByTestId("application-row").filter({ hasText: "Focus Wiki" }).getByRole("link", { name: /Remove/ }).click();
  await expect(page.getByRole("group", { name: "Remove Focus Wiki?" })).toBeFocused();
  await expect(page.getByRole("button", { name: "Remove Focus Wiki" })).toBeInViewport();
  await expectNoAxeViolations(page, "remove application question, phone, JS");
});

test("the switcher says what the active organization is, and its confirmation is brought into view", async ({ page }) => {
  await ownerWithOrganization(page, "Team Nine");
  await page.goto("/account/profile");
  await waitForHydration(page);
  const switcher = page.getByRole("combobox", { name: "Active organization" });
  await expect(switcher).toHaveAccessibleDescription(/The organization you work in on this browser/);
  // Created just now, Team Nine is active: switching to none is the one switch (a second one would race the
  // client's refetch of the active organization, which resets the select).
  await switcher.selectOption("");
  await page.getByRole("button", { name: "Switch" }).click();
  const switched = page.locator("#switched");
  await expect(switched).toHaveText("No organization is active now.");
  await expect(switched).toBeFocused();
  // Not at the screen's bottom edge: its whole box is well inside the viewport.
  await expect
    .poll(async () => {
      const box = (await switched.boundingBox())!;
      return box.y >= 0 && box.y + box.height < 640 - 40;
    })
    .toBe(true);
  await expectNoAxeViolations(page, "switched, phone, JS");
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
  test("the welcome's 'Thank you…' before an application's consent page does not turn up later on another page", async ({ page, user, appServer }) => {
    const app = await registerClient(appServer.database, { name: "Notice Wiki", redirectUri: "https://wiki.example.com/callback" });
    const { url } = await authorizationRequest(await relyingParty(app, appServer.baseUrl), app);
    await signIn(page, user);
    await page.goto(url.href);
    await expect(page.getByRole("heading", { name: "Allow Notice Wiki to use your account?" })).toBeVisible();
    const consent = new URL(page.url()).pathname;
    // The account has no name yet (as one made by a sign-in code): the welcome step asks for it, then goes on.
    const db = new Database(appServer.database.file);
    try {
      db.prepare(`UPDATE "user" SET "name" = '' WHERE "email" = ?`).run(user.email);
    } finally {
      db.close();
    }
    await page.goto(`/welcome?${new URLSearchParams({ redirectTo: consent })}`);
    await page.getByLabel("Your name").fill("Wendy Welcome");
    await page.getByRole("button", { name: "Save and continue" }).click();
    await expect(page.getByRole("heading", { name: "Allow Notice Wiki to use your account?" })).toBeVisible();
    // The consent page has no notice area: the notice is still waiting in its cookie…
    expect((await page.context().cookies()).some((cookie) => cookie.name.endsWith("latchkey.flash") && cookie.value !== "")).toBe(true);
    // …and the next page that shows notices, not the one it was meant for, drops it.
    await page.goto("/account/profile");
    await expect(page.getByText(/Thank you/)).toHaveCount(0);
    await expect(page.getByRole("status")).toHaveCount(0);
  });
});
