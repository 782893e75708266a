// The admin console and impersonation (issue 30), with JavaScript off: an admin finds an account, bans and unbans
// it, acts as its owner behind a banner on every page, is refused changing their password, and stops; others
// get a 404; axe checks every state, also on a phone in dark mode.
import Database from "better-sqlite3";
import { expect, expectErrorSummary, expectNoAxeViolations, expectStatus, PASSWORD, signIn, test, uniqueEmail, type TestUser } from "./fixtures";

test.use({ javaScriptEnabled: false });

/** An operator's grant, as `npm run admin -- grant` makes it, straight in this worker's database. */
function makeAdmin(databaseFile: string, email: string) {
  const db = new Database(databaseFile);
  try {
    db.prepare(`UPDATE "user" SET "role" = 'admin' WHERE "email" = ?`).run(email);
  } finally {
    db.close();
  }
}

async function newAccount(request: import("@playwright/test").APIRequestContext, baseURL: string, name: string): Promise<TestUser> {
  const user = { name, email: uniqueEmail(name.split(" ")[0].toLowerCase()), password: PASSWORD };
  const signUp = await request.post("/api/auth/sign-up/email", { data: user, headers: { Origin: baseURL } });
  expect(signUp.status(), await signUp.text()).toBe(200);
  await request.post("/api/auth/sign-out", { headers: { Origin: baseURL } });
  return user;
}

test("an admin finds an account, bans it, acts as its owner behind a banner, and stops", async ({ page, request, baseURL, appServer }) => {
  const admin = await newAccount(request, baseURL!, "Root Admin");
  const member = await newAccount(request, baseURL!, "Mary Member");
  makeAdmin(appServer.database.file, admin.email);
  await signIn(page, admin);
  await expect(page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Admin" })).toBeVisible();

  await page.goto("/admin");
  await expectNoAxeViolations(page, "admin list");
  await page.getByLabel("Search").fill(member.email.slice(0, 14));
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByTestId("admin-user-row")).toHaveCount(1);
  await page.getByRole("link", { name: member.name }).click();
  await expect(page.getByRole("heading", { level: 1, name: member.name })).toBeVisible();
  await expectNoAxeViolations(page, "admin user");

  await page.getByLabel("Reason (optional)").fill("Testing bans");
  await page.getByRole("button", { name: `Ban ${member.email}` }).click();
  await expectStatus(page, "The account is banned and signed out everywhere.");
  await expect(page.getByText("Banned: Testing bans")).toBeVisible();
  await page.getByRole("button", { name: "Lift the ban" }).click();
  await expectStatus(page, "The ban is lifted");
  await expect(page.getByText("Not banned")).toBeVisible();

  await page.getByRole("button", { name: `Impersonate ${member.email}` }).click();
  await expect(page).toHaveURL("/account");
  const banner = page.getByRole("region", { name: "Acting as another user" });
  await expect(banner).toContainText(`You are acting as ${member.name} (${member.email}) — Stop`);
  await expectNoAxeViolations(page, "impersonating: account");
  // On every page, also one outside the account area.
  await page.goto("/organizations");
  await expect(banner).toBeVisible();
  // The console is not theirs: the impersonation session is the member's.
  expect((await page.request.get("/admin")).status()).toBe(404);

  await page.goto("/account/security");
  await page.getByLabel("Current password").fill(PASSWORD);
  await page.getByLabel("New password").fill("a different passphrase");
  await page.getByRole("button", { name: /change password/i }).click();
  await expectErrorSummary(page, ["You are acting as this person"]);

  await banner.getByRole("button", { name: "Stop" }).click();
  await expect(page).toHaveURL(/\/admin\/users\//);
  await expectStatus(page, `You stopped acting as ${member.name}.`);
  await expect(page.getByRole("region", { name: "Acting as another user" })).toHaveCount(0);
  await expect(page.getByText("An administrator started acting as this account")).toBeVisible();
  await expect(page.getByText("An administrator stopped acting as this account")).toBeVisible();
});

test("deleting asks for the account's address first", async ({ page, request, baseURL, appServer }) => {
  const admin = await newAccount(request, baseURL!, "Second Admin");
  const member = await newAccount(request, baseURL!, "Doomed Member");
  makeAdmin(appServer.database.file, admin.email);
  await signIn(page, admin);
  await page.goto(`/admin?q=${encodeURIComponent(member.email)}`);
  await page.getByRole("link", { name: member.name }).click();
  await page.getByRole("button", { name: `Delete ${member.email}` }).click();
  await expectErrorSummary(page, ["Type the account's email address to confirm."]);
  await page.getByLabel(`Type ${member.email} to confirm`).fill(member.email);
  await page.getByRole("button", { name: `Delete ${member.email}` }).click();
  await expect(page).toHaveURL("/admin");
  await expectStatus(page, `The account ${member.email} is deleted.`);
});

test("Send a password reset link is recorded in the account's events", async ({ page, request, baseURL, appServer }) => {
  const admin = await newAccount(request, baseURL!, "Reset Admin");
  const member = await newAccount(request, baseURL!, "Forgetful Member");
  makeAdmin(appServer.database.file, admin.email);
  await signIn(page, admin);
  await page.goto(`/admin?q=${encodeURIComponent(member.email)}`);
  await page.getByRole("link", { name: member.name }).click();
  await page.getByRole("button", { name: "Send a password reset link" }).click();
  await expectStatus(page, `A password reset link is on its way to ${member.email}.`);
  await expect(page.getByText(`Password reset link sent by an administrator (by ${admin.email})`)).toBeVisible();
});

test("applications: an admin registers one (the secret shown once), sees it listed, and removes it behind a confirmation", async ({ page, request, baseURL, appServer }) => {
  const admin = await newAccount(request, baseURL!, "Apps Admin");
  makeAdmin(appServer.database.file, admin.email);
  await signIn(page, admin);
  await page.goto("/admin");
  await page.getByRole("link", { name: "Applications" }).click();
  await expect(page).toHaveURL("/admin/applications");
  await expectNoAxeViolations(page, "admin applications");

  await page.getByRole("button", { name: "Register" }).click();
  await expectErrorSummary(page, ["Enter the application's name.", "Enter at least one redirect address."]);
  await page.getByLabel("Name").fill("Browser Test Wiki");
  await page.getByLabel("Redirect addresses").fill("http://wiki.example.com/callback");
  await page.getByRole("button", { name: "Register" }).click();
  await expectErrorSummary(page, ["must use https"]);
  await expect(page.getByLabel("Name")).toHaveValue("Browser Test Wiki");
  await page.getByLabel("Redirect addresses").fill("https://wiki.example.com/callback\nhttps://wiki.example.com/other");
  await page.getByRole("button", { name: "Register" }).click();
  await expectStatus(page, "Browser Test Wiki is registered.");
  const clientId = (await page.getByTestId("registered-client-id").textContent())!;
  expect(await page.getByTestId("registered-client-secret").textContent()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  const row = page.getByTestId("application-row").filter({ hasText: clientId });
  await expect(row).toContainText("Confidential");
  await expect(row).toContainText("https://wiki.example.com/other");
  await expectNoAxeViolations(page, "admin applications, registered");
  // The secret is not shown again.
  await page.goto("/admin/applications");
  await expect(page.getByTestId("registered-client-secret")).toHaveCount(0);

  await row.getByRole("link", { name: /Remove/ }).click();
  await expect(page.getByRole("heading", { name: "Remove Browser Test Wiki?" })).toBeVisible();
  await expectNoAxeViolations(page, "admin applications, confirm removal");
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page.getByTestId("application-row").filter({ hasText: clientId })).toHaveCount(1);
  await page.getByTestId("application-row").filter({ hasText: clientId }).getByRole("link", { name: /Remove/ }).click();
  await page.getByRole("button", { name: "Remove Browser Test Wiki" }).click();
  await expectStatus(page, "The application is removed: it can no longer sign anyone in.");
  await expect(page.getByTestId("application-row").filter({ hasText: clientId })).toHaveCount(0);
});

// Asked through the page's own cookies (page.request), since a page answered 404 counts as a failed load here.
test("the console is a 404 for everyone but admins", async ({ page, user }) => {
  expect((await page.request.get("/admin")).status()).toBe(404);
  await signIn(page, user);
  await expect(page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Admin" })).toHaveCount(0);
  expect((await page.request.get("/admin")).status()).toBe(404);
  expect((await page.request.get("/admin/users/anything")).status()).toBe(404);
  expect((await page.request.get("/admin/applications")).status()).toBe(404);
  const registered = await page.request.post("/admin/applications", {
    form: { intent: "register", name: "Sneaky", redirectUris: "https://sneaky.example.com/cb", kind: "public" },
    headers: { Origin: new URL(page.url()).origin },
  });
  expect(registered.status()).toBe(404);
  const posted = await page.request.post("/admin/users/anything", { form: { intent: "unban" }, headers: { Origin: new URL(page.url()).origin } });
  expect(posted.status()).toBe(404);
});

test.describe("on a phone in dark mode", () => {
  test.use({ viewport: { width: 320, height: 640 }, colorScheme: "dark" });
  test("the console and the banner pass axe", async ({ page, request, baseURL, appServer }) => {
    const admin = await newAccount(request, baseURL!, "Phone Admin");
    const member = await newAccount(request, baseURL!, "Phone Member");
    makeAdmin(appServer.database.file, admin.email);
    await signIn(page, admin);
    await page.goto(`/admin?q=${encodeURIComponent(member.email)}`);
    await expectNoAxeViolations(page, "admin list, phone, dark");
    await page.goto("/admin/applications");
    await expectNoAxeViolations(page, "admin applications, phone, dark");
    await page.goto(`/admin?q=${encodeURIComponent(member.email)}`);
    await page.getByRole("link", { name: member.name }).click();
    await expectNoAxeViolations(page, "admin user, phone, dark");
    await page.getByRole("button", { name: `Impersonate ${member.email}` }).click();
    await expectNoAxeViolations(page, "banner, phone, dark");
  });
});
