// Issue 41's console and impersonation findings, with JavaScript off unless a test says otherwise: the search
// says when nothing matches and offers "Clear search", dates read in words, a role change asks first, a user's
// events page on past 25; while acting as someone the header's button stops acting (not signing out), the forms
// that would be refused are replaced by one line, the banner stays in view, and the site's own 404, 405 and 413
// pages keep it. axe checks every new state.
import Database from "better-sqlite3";
import type { Page } from "@playwright/test";
import { makeAdmin, newAccount } from "./admin-steps";
import { expect, expectErrorSummary, expectNoAxeViolations, expectStatus, signIn, test, type TestUser } from "./fixtures";

test.use({ javaScriptEnabled: false });

/** Signs the admin in and opens the member's page in the console; returns the member's id. */
async function openInConsole(page: Page, admin: TestUser, member: TestUser): Promise<string> {
  await signIn(page, admin);
  await page.goto(`/admin?q=${encodeURIComponent(member.email)}`);
  await page.getByRole("link", { name: member.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: member.name })).toBeVisible();
  return decodeURIComponent(new URL(page.url()).pathname.split("/").pop()!);
}

test("the account list says when nothing matches, offers Clear search, and dates read in words", async ({ page, request, baseURL, appServer }) => {
  const admin = await newAccount(request, baseURL!, "List Admin");
  makeAdmin(appServer.database.file, admin.email);
  await signIn(page, admin);
  await page.goto("/admin");
  await expect(page.getByTestId("admin-count")).not.toContainText("Clear search");
  const created = page.getByTestId("admin-user-row").first().locator("time");
  await expect(created).toHaveText(/just now|minutes? ago/);
  // The full date and time in the reader's language (here English, as Intl writes it), in UTC.
  await expect(created).toHaveAttribute("title", /^\d{1,2} [A-Z][a-z]+ \d{4} at \d\d:\d\d UTC$/);

  await page.getByLabel("Search").fill("nobody-by-this-name");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("admin-count")).toContainText("No account matches.");
  await expect(page.getByTestId("admin-user-row")).toHaveCount(0);
  await expectNoAxeViolations(page, "admin list, nothing matches");
  await page.getByRole("link", { name: "Clear search" }).click();
  await expect(page).toHaveURL("/admin");
  await expect(page.getByLabel("Search")).toHaveValue("");
  await expect(page.getByTestId("admin-user-row").first()).toBeVisible();
});

test("Set role asks before it makes someone an admin; the delete step names this account's address", async ({ page, request, baseURL, appServer }) => {
  const admin = await newAccount(request, baseURL!, "Role Admin");
  const member = await newAccount(request, baseURL!, "Rory Member");
  makeAdmin(appServer.database.file, admin.email);
  await openInConsole(page, admin, member);
  await expect(page.getByRole("term").filter({ hasText: "Created" }).locator("+ dd time")).toHaveText(/just now|minutes? ago/);

  await page.getByLabel("Role", { exact: true }).selectOption("admin");
  await page.getByRole("button", { name: "Set role…" }).click();
  const question = page.getByRole("group", { name: `Make ${member.name} an admin?` });
  await expect(question).toBeFocused();
  await expect(page.locator(".admin-facts")).toContainText("user");
  await expectNoAxeViolations(page, "admin user, confirm role");
  await question.getByRole("link", { name: "Cancel" }).click();
  await expect(question).toHaveCount(0);

  await page.getByLabel("Role", { exact: true }).selectOption("admin");
  await page.getByRole("button", { name: "Set role…" }).click();
  await page.getByRole("button", { name: `Make ${member.email} an admin` }).click();
  await expectStatus(page, "The role is now admin.");

  await page.getByLabel(`Type ${member.email} to confirm`).fill(admin.email);
  await page.getByRole("button", { name: `Delete ${member.email}` }).click();
  await expectErrorSummary(page, ["That isn't this account's email address. Type it exactly as shown to confirm."]);
});

test("a user's security events page on past the first 25", async ({ page, request, baseURL, appServer }) => {
  const admin = await newAccount(request, baseURL!, "Events Admin");
  const member = await newAccount(request, baseURL!, "Busy Member");
  makeAdmin(appServer.database.file, admin.email);
  const memberId = await openInConsole(page, admin, member);
  // 30 more events than the page shows, stamped like the account's own (whatever the column's format).
  const db = new Database(appServer.database.file);
  try {
    const insert = db.prepare(
      `INSERT INTO "securityEvent" ("id", "userId", "type", "createdAt", "details") SELECT ?, "userId", 'session_revoked', "createdAt", '{"sessions":1}' FROM "securityEvent" WHERE "userId" = ? LIMIT 1`,
    );
    for (let i = 0; i < 30; i++) expect(insert.run(`e2e-event-${memberId}-${i}`, memberId).changes).toBe(1);
  } finally {
    db.close();
  }
  await page.reload();
  await expect(page.getByTestId("admin-event-row")).toHaveCount(25);
  await expect(page.getByTestId("admin-events-shown")).toHaveText(/^Events 1–25 of \d+$/);
  await page.getByRole("link", { name: "Older events" }).click();
  await expect(page).toHaveURL(/\?events=2#events$/);
  await expect(page.getByTestId("admin-events-shown")).toHaveText(/^Events 26–\d+ of \d+$/);
  await expect(page.getByRole("link", { name: "Newer events" })).toBeVisible();
  await expectNoAxeViolations(page, "admin user, older events");
});

test("while acting as someone: Stop in the header, refused forms held back, the banner in view and on the error pages", async ({ page, request, baseURL, appServer, consoleErrors }) => {
  const admin = await newAccount(request, baseURL!, "Acting Admin");
  const member = await newAccount(request, baseURL!, "Amy Member");
  makeAdmin(appServer.database.file, admin.email);
  await openInConsole(page, admin, member);
  await page.getByRole("button", { name: `Impersonate ${member.email}` }).click();
  await expect(page).toHaveURL("/account");
  const header = page.locator(".site-header");
  await expect(header.getByRole("button", { name: `Stop acting as ${member.name}` })).toBeVisible();
  await expect(header.getByRole("button", { name: "Sign out" })).toHaveCount(0);

  for (const [path, line] of [
    ["/account/security", "the password can't be changed"],
    ["/account/profile", "the profile and email address can't be changed"],
    ["/account/passkeys", "passkeys can't be added, renamed or deleted"],
    ["/account/two-factor", "two-factor settings can't be changed"],
    ["/account/linked-accounts", "accounts can't be linked or unlinked"],
    ["/account/delete", "the account can't be deleted"],
    ["/account/activity", `"This wasn't me" can't be used`],
    ["/account/activity?confirm", `"This wasn't me" can't be used`],
  ] as const) {
    await page.goto(path);
    await expect(page.getByTestId("kept-from-impersonators"), path).toContainText(`You are acting as this person, so ${line}`);
    await expect(page.locator("main form"), path).toHaveCount(0);
    await expectNoAxeViolations(page, `acting: ${path}`);
  }

  // The banner is a bar that stays at the top as a long page scrolls.
  await page.setViewportSize({ width: 320, height: 480 });
  await page.goto("/account/sessions");
  await page.mouse.wheel(0, 2000);
  await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight)).catch(() => undefined);
  const banner = page.getByRole("region", { name: "Acting as another user" });
  await expect(banner).toBeInViewport();
  expect(await banner.evaluate((element) => getComputedStyle(element).position)).toBe("sticky");
  await page.setViewportSize({ width: 1280, height: 720 });

  // The site's own 404, 405 and 413 pages keep the banner, its Stop and who is signed in.
  const notFound = await page.goto("/no-such-page");
  expect(notFound!.status()).toBe(404);
  await expect(banner).toContainText(`You are acting as ${member.name}`);
  await expect(header).toContainText(`Signed in as ${member.name}`);
  await expectNoAxeViolations(page, "acting: 404");
  // That 404 is the point; anything else logged still fails the test.
  consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !/no-such-page/.test(error)));
  for (const [status, post] of [
    [405, () => page.request.post("/email-verified", { form: { a: "b" }, headers: { Origin: baseURL!, Accept: "text/html" } })],
    [413, () => page.request.post("/account/profile", { form: { intent: "update-profile", name: "x".repeat(70 * 1024) }, headers: { Origin: baseURL!, Accept: "text/html" } })],
  ] as const) {
    const response = await post();
    expect(response.status()).toBe(status);
    // Names are isolated in <bdi> (issue 44): the words read across it.
    const html = (await response.text()).replaceAll("<!-- -->", "").replace(/<\/?bdi>/g, "");
    expect(html, String(status)).toContain(`You are acting as ${member.name}`);
    expect(html, String(status)).toContain(`Stop acting as ${member.name}`);
  }

  // Stop from the 404 page's header: back to the console as the admin.
  await header.getByRole("button", { name: `Stop acting as ${member.name}` }).click();
  await expect(page).toHaveURL(/\/admin\/users\//);
  await expectStatus(page, `You stopped acting as ${member.name}.`);
  await expect(header).toContainText(`Signed in as ${admin.name}`);
});

test.describe("on a phone in dark mode", () => {
  test.use({ viewport: { width: 320, height: 640 }, colorScheme: "dark" });
  test("the role question and the banner over a kept-back form pass axe", async ({ page, request, baseURL, appServer }) => {
    const admin = await newAccount(request, baseURL!, "Dark Admin");
    const member = await newAccount(request, baseURL!, "Dana Member");
    makeAdmin(appServer.database.file, admin.email);
    await openInConsole(page, admin, member);
    await page.getByLabel("Role", { exact: true }).selectOption("admin");
    await page.getByRole("button", { name: "Set role…" }).click();
    await expect(page.getByRole("button", { name: `Make ${member.email} an admin` })).toBeInViewport();
    await expectNoAxeViolations(page, "role question, phone, dark");
    await page.getByRole("link", { name: "Cancel" }).click();
    await page.getByRole("button", { name: `Impersonate ${member.email}` }).click();
    await page.goto("/account/security");
    await expectNoAxeViolations(page, "acting, kept-back form, phone, dark");
  });
});

test.describe("with JavaScript", () => {
  test.use({ javaScriptEnabled: true });
  test("a refused action clears the earlier success notice, and a role question takes the focus", async ({ page, request, baseURL, appServer }) => {
    const admin = await newAccount(request, baseURL!, "Script Admin");
    const member = await newAccount(request, baseURL!, "Sam Member");
    makeAdmin(appServer.database.file, admin.email);
    await openInConsole(page, admin, member);
    await page.getByRole("button", { name: "Send a password reset link" }).click();
    await expectStatus(page, `A password reset link is on its way to ${member.email}.`);
    await page.getByLabel("New password").fill("short");
    await page.getByRole("button", { name: "Set password", exact: true }).click();
    await expect(page.locator(".error-summary")).toBeVisible();
    await expect(page.getByRole("status")).toHaveCount(0);

    await page.getByLabel("Role", { exact: true }).selectOption("admin");
    await page.getByRole("button", { name: "Set role…" }).click();
    await expect(page.getByRole("group", { name: `Make ${member.name} an admin?` })).toBeFocused();
    await expectNoAxeViolations(page, "role question, JS");

    // The same on the account's own profile page.
    await page.goto("/account/profile");
    await page.getByLabel("Name", { exact: true }).fill("Script Admin Renamed");
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect(page.getByRole("status")).toBeVisible();
    await page.getByLabel("New email").fill(admin.email);
    await page.getByRole("button", { name: "Change email" }).click();
    await expect(page.locator(".error-summary")).toBeVisible();
    await expect(page.getByRole("status")).toHaveCount(0);
  });

  test("the 404 page hydrates with the banner and the header's Stop, which works", async ({ page, request, baseURL, appServer, consoleErrors }) => {
    const admin = await newAccount(request, baseURL!, "Hydrate Admin");
    const member = await newAccount(request, baseURL!, "Hana Member");
    makeAdmin(appServer.database.file, admin.email);
    await openInConsole(page, admin, member);
    await page.getByRole("button", { name: `Impersonate ${member.email}` }).click();
    await expect(page).toHaveURL("/account");
    expect((await page.goto("/no-such-page"))!.status()).toBe(404);
    // Hydrated: React owns the banner's form (the page has no form in <main> for waitForHydration).
    await page.waitForFunction(() => {
      const form = document.querySelector(".impersonation-banner form");
      return form !== null && Object.keys(form).some((key) => key.startsWith("__reactProps"));
    });
    await expect(page.getByRole("region", { name: "Acting as another user" })).toContainText(`You are acting as ${member.name}`);
    consoleErrors.splice(0, consoleErrors.length, ...consoleErrors.filter((error) => !/no-such-page/.test(error)));
    await page.locator(".site-header").getByRole("button", { name: `Stop acting as ${member.name}` }).click();
    await expect(page).toHaveURL(/\/admin\/users\//);
    await expectStatus(page, `You stopped acting as ${member.name}.`);
  });
});
