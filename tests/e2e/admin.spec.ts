// The admin console and impersonation (issue 30), with JavaScript off: an admin finds an account, bans and unbans
// it, acts as its owner behind a banner on every page, finds the forms it may not use held back, and stops; others
// get a 404; axe checks every state, also on a phone in dark mode.
import { makeAdmin, newAccount } from "./admin-steps";
import { expect, expectErrorSummary, expectNoAxeViolations, expectStatus, signIn, test } from "./fixtures";

test.use({ javaScriptEnabled: false });

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
  await expect(banner).toContainText(`You are acting as ${member.name} (${member.email})`);
  await expect(banner.getByRole("button", { name: "Stop" })).toBeVisible();
  await expectNoAxeViolations(page, "impersonating: account");
  // On every page, also one outside the account area.
  await page.goto("/organizations");
  await expect(banner).toBeVisible();
  // The console is not theirs: the impersonation session is the member's.
  expect((await page.request.get("/admin")).status()).toBe(404);

  // The forms that would be refused are not shown: one line says why (the refusal itself: tests/api/admin.test.ts).
  await page.goto("/account/security");
  await expect(page.getByTestId("kept-from-impersonators")).toContainText("You are acting as this person, so the password can't be changed");
  await expect(page.getByLabel("Current password")).toHaveCount(0);

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
  await page.getByLabel(`Type ${member.email} to confirm`).fill(admin.email);
  await page.getByRole("button", { name: `Delete ${member.email}` }).click();
  await expectErrorSummary(page, ["That isn't this account's email address."]);
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
