// /account/activity (issue 29): the account's security events in words for people, "New device" marked, "Older"
// pages, and "This wasn't me — sign out everywhere" behind a confirmation, all without JavaScript; axe on
// every state.
import { expect, expectNoAxeViolations, expectStatus, PASSWORD, signIn, test, waitForHydration } from "./fixtures";
import { linkFromMail } from "./mail";

test.use({ javaScriptEnabled: false });

test("a person reads what happened, pages back, and signs out everywhere because it wasn't them", async ({ page, openContext, user, baseURL }) => {
  test.setTimeout(120_000); // more than a page of events, four axe checks: long on a loaded machine
  // Signed in here (a browser new to the account: sign-up happened elsewhere), then a sign-out and back in.
  await signIn(page, user);
  await page.getByRole("button", { name: "Sign out" }).click();
  await signIn(page, user);

  // Someone else: a wrong password, then the right one from their own browser, many times over.
  const intruder = await openContext();
  await intruder.page.goto("/sign-in");
  await intruder.page.getByLabel("Email").fill(user.email);
  await intruder.page.getByLabel("Password").fill("not the password at all");
  await intruder.page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(intruder.page.getByRole("alert").or(intruder.page.locator(".error-summary")).first()).toBeVisible();
  await signIn(intruder.page, user);
  for (let i = 0; i < 20; i++) {
    const again = await intruder.context.request.post("/api/auth/sign-in/email", { data: { email: user.email, password: PASSWORD }, headers: { Origin: baseURL! } });
    expect(again.status()).toBe(200);
  }

  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Activity" }).click();
  await expect(page).toHaveURL("/account/activity");
  await expect(page.getByRole("heading", { level: 1, name: "Activity" })).toBeVisible();
  await expectNoAxeViolations(page, "activity");
  const rows = page.getByTestId("activity-row");
  await expect(rows).toHaveCount(20);
  await expect(page.getByTestId("events-shown")).toHaveText(/^Events 1–20 of \d+$/);
  await expect(rows.first()).toContainText(/^Signed in with a password — \w+ on \w+, [\d.:a-f]+ — just now Not you\?/);

  // The older page holds the intruder's first sign-in (a new device), the wrong password, and this browser's.
  await page.getByRole("link", { name: "Older events" }).click();
  await expect(page).toHaveURL(/\/account\/activity\?cursor=/);
  await expectNoAxeViolations(page, "activity, older");
  await expect(rows.filter({ hasText: "Wrong password entered" })).toHaveCount(1);
  await expect(rows.filter({ hasText: "New device" })).toHaveCount(2);
  await expect(rows.filter({ hasText: /^Signed out/ })).toHaveCount(2); // the set-up's and this browser's
  await expect(rows.last()).toContainText("Account created and signed in with a password");
  await expect(page.getByTestId("events-shown")).toHaveText(/^Events 21–\d+ of \d+$/);
  await expect(page.getByRole("link", { name: "Older events" })).toHaveCount(0);
  await page.getByRole("link", { name: "Newer events" }).click();
  await expect(page).toHaveURL("/account/activity");

  // "This wasn't me": a confirmation first (Cancel keeps everything), then every session ends.
  await page.getByRole("link", { name: "This wasn't me — sign out everywhere" }).click();
  await expect(page).toHaveURL("/account/activity?confirm#not-me-heading");
  await expect(page.getByRole("heading", { level: 1, name: "Sign out everywhere?" })).toBeFocused();
  await expectNoAxeViolations(page, "activity, confirm");
  await expect(page.getByText("This signs out every device signed in to your account, this one too")).toBeVisible();
  await page.getByRole("link", { name: "Cancel" }).click();
  await expect(page).toHaveURL("/account/activity");
  await page.getByRole("link", { name: "This wasn't me — sign out everywhere" }).click();
  await page.getByRole("button", { name: "Yes, sign out everywhere" }).click();

  await expect(page).toHaveURL("/");
  await expectStatus(page, `You are signed out everywhere, on this device too. We emailed ${user.email} a link to choose a new password: use it before you sign in again.`);
  await expectNoAxeViolations(page, "home after signing out everywhere");
  expect(await linkFromMail(user.email, /You signed out everywhere/)).toContain("/api/auth/reset-password/");
  await page.goto("/account/activity");
  await expect(page).toHaveURL("/sign-in?redirectTo=%2Faccount%2Factivity");
  await intruder.page.goto("/account");
  await expect(intruder.page).toHaveURL("/sign-in?redirectTo=%2Faccount");
});

test("the activity page on a phone, in dark mode", async ({ page, user }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await page.emulateMedia({ colorScheme: "dark" });
  await signIn(page, user);
  await page.goto("/account/activity");
  await expect(page.getByTestId("activity-row").first()).toBeVisible();
  await expectNoAxeViolations(page, "activity, phone, dark");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, "no sideways scrolling at 320px").toBeLessThanOrEqual(0);
});

test.describe("with JavaScript on", () => {
  test.use({ javaScriptEnabled: true });

  test("the same confirmation, answered without a page load, signs out everywhere", async ({ page, user }) => {
    await signIn(page, user);
    await page.goto("/account/activity");
    await expect(page.getByTestId("activity-row").first()).toContainText("Signed in with a password");
    await page.getByRole("link", { name: "This wasn't me — sign out everywhere" }).click();
    await expect(page).toHaveURL("/account/activity?confirm#not-me-heading");
    await waitForHydration(page);
    await expectNoAxeViolations(page, "activity, confirm, JavaScript on");
    await page.getByRole("button", { name: "Yes, sign out everywhere" }).click();
    await expect(page).toHaveURL("/");
    await expectStatus(page, /You are signed out everywhere/);
  });
});
