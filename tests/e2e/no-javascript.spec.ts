// The pages work as plain HTML forms: every story here runs with JavaScript turned off.
import {
  expect,
  expectErrorSummary,
  expectFieldError,
  expectNoAxeViolations,
  expectStatus,
  expectSignedInAs,
  PASSWORD,
  sessionCookie,
  signIn,
  signUp,
  submitSignIn,
  test,
  uniqueEmail,
} from "./fixtures";

test.use({ javaScriptEnabled: false });

const DAY_SECONDS = 24 * 60 * 60;

test("a visitor signs up, lands on their account, signs out and can no longer see it", async ({ page }) => {
  const user = { name: "Grace Hopper", email: uniqueEmail("sign-up"), password: PASSWORD };
  await page.goto("/");
  await expectNoAxeViolations(page, "home");
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(page).toHaveURL("/sign-up");
  await expectNoAxeViolations(page, "sign-up");

  await signUp(page, user);
  await expectSignedInAs(page, user);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
  await expectStatus(page, "You are signed out.");
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();

  await page.goto("/account");
  await expect(page).toHaveURL("/sign-in?redirectTo=%2Faccount");
});

test("an e-mail address is stored lowercased, so signing in with other casing works", async ({ page }) => {
  const email = uniqueEmail("MixedCase");
  await signUp(page, { name: "Mixed Case", email, password: PASSWORD });
  await expectSignedInAs(page, { name: "Mixed Case", email: email.toLowerCase() });
  await page.getByRole("button", { name: "Sign out" }).click();

  await signIn(page, { email: email.toUpperCase(), password: PASSWORD });
  await expectSignedInAs(page, { name: "Mixed Case", email: email.toLowerCase() });
});

test("signing up with an invalid e-mail shows the error next to the field and keeps what was typed", async ({ page }) => {
  await signUp(page, { name: "Typo", email: "typo@", password: PASSWORD });
  await expect(page).toHaveURL("/sign-up");
  await expectErrorSummary(page, ["Enter an email address like ada@example.com."]);
  await expectFieldError(page, "Email", "Enter an email address like ada@example.com.");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Typo");
  await expect(page.getByLabel("Email")).toHaveValue("typo@");
  await expect(page.getByLabel("Password")).toHaveValue("");
  await expect(page.getByLabel("Name", { exact: true })).not.toHaveAttribute("aria-invalid", "true");
});

test("signing up with a too-short password shows the error next to the password", async ({ page }) => {
  await signUp(page, { name: "Short", email: uniqueEmail("short"), password: "1234567" });
  await expect(page).toHaveURL("/sign-up");
  await expectErrorSummary(page, ["Use at least 8 characters."]);
  await expectFieldError(page, "Password", "Use at least 8 characters.");
});

test("signing up twice with one address says an account exists, with the ways on", async ({ page, user }) => {
  await signUp(page, { ...user, name: "Impostor" });
  await expect(page).toHaveURL("/sign-up");
  const message = "An account with this email already exists. Sign in or reset your password.";
  await expectErrorSummary(page, [message]);
  await expectFieldError(page, "Email", message);
  const wayOn = page.getByTestId("user-exists-links");
  await expect(wayOn.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/sign-in");
  await wayOn.getByRole("link", { name: "reset your password" }).click();
  await expect(page).toHaveURL("/forgot-password");
});

test("with Remember me, the session cookie outlives the browser session", async ({ page, context, user }) => {
  await signIn(page, user, { rememberMe: true });
  await expectSignedInAs(page, user);
  const cookie = await sessionCookie(context);
  expect(cookie, "session cookie").toBeDefined();
  expect(cookie!.httpOnly).toBe(true);
  expect(cookie!.sameSite).toBe("Lax");
  expect(cookie!.expires).toBeGreaterThan(Date.now() / 1000 + 6 * DAY_SECONDS);
});

test("without Remember me, the session cookie ends with the browser session", async ({ page, context, user }) => {
  await signIn(page, user, { rememberMe: false });
  await expectSignedInAs(page, user);
  const cookie = await sessionCookie(context);
  expect(cookie, "session cookie").toBeDefined();
  expect(cookie!.expires).toBe(-1);
  // Reading the account page again keeps it a browser-session cookie.
  await page.reload();
  await expectSignedInAs(page, user);
  expect((await sessionCookie(context))!.expires).toBe(-1);
});

test("a wrong password is refused without saying which part was wrong", async ({ page, context, user }) => {
  await page.goto("/sign-in");
  await submitSignIn(page, { email: user.email, password: "not the password" });
  await expect(page).toHaveURL("/sign-in");
  const message = "That email and password don't match. Check both and try again.";
  await expectErrorSummary(page, [message]);
  await expect(page.getByLabel("Email")).toHaveValue(user.email);
  expect(await sessionCookie(context)).toBeUndefined();

  await submitSignIn(page, { email: uniqueEmail("nobody"), password: PASSWORD });
  await expectErrorSummary(page, [message]);
});

test("a signed-out visit to the account page comes back to it, query included, after signing in", async ({ page, user }) => {
  await page.goto("/account?x=1");
  await expect(page).toHaveURL("/sign-in?redirectTo=%2Faccount%3Fx%3D1");
  await submitSignIn(page, user);
  await expect(page).toHaveURL("/account?x=1");
  await expect(page.getByTestId("account-email")).toHaveText(user.email);
});

test("a visitor without an account, sent to sign in, signs up instead and still comes back", async ({ page }) => {
  const user = { name: "Newcomer", email: uniqueEmail("newcomer"), password: PASSWORD };
  await page.goto("/account?x=1");
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(page).toHaveURL("/sign-up?redirectTo=%2Faccount%3Fx%3D1");
  await page.getByLabel("Name", { exact: true }).fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expect(page).toHaveURL("/account?x=1");
});

test("a visitor who turns to sign-up but has an account goes back to sign in without losing the way back", async ({ page, user }) => {
  await page.goto("/sign-up?redirectTo=%2Faccount%3Fx%3D1");
  await page.getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL("/sign-in?redirectTo=%2Faccount%3Fx%3D1");
  await submitSignIn(page, user);
  await expect(page).toHaveURL("/account?x=1");
});

for (const target of ["https://evil.example/steal", "//evil.example/steal", "/\\evil.example/steal"]) {
  test(`sign-in does not follow redirectTo=${target} off the site`, async ({ page, user }) => {
    await page.goto(`/sign-in?redirectTo=${encodeURIComponent(target)}`);
    await submitSignIn(page, user);
    await expectSignedInAs(page, user);
  });
}

test("revoking another device's session signs that device out on its next visit", async ({ page, context, openContext, user }) => {
  await signIn(page, user);
  const laptop = await openContext();
  await signIn(laptop.page, user);

  await page.goto("/account/sessions");
  await expectNoAxeViolations(page, "sessions");
  const rows = page.getByTestId("session-row");
  await expect(rows).toHaveCount(2);
  // This device first; only the other session offers a Revoke button, named after its device.
  await expect(rows.first()).toContainText("this device");
  const other = rows.filter({ hasNotText: "this device" });
  await expect(other).toContainText(/last active (just now|\d+ minutes? ago)/);
  await expect(page.getByRole("button", { name: /^Revoke Chrome on Linux, last active / })).toHaveCount(1);
  await other.getByRole("button", { name: /Revoke/ }).click();

  await expect(page).toHaveURL("/account/sessions");
  await expectStatus(page, "Signed out Chrome on Linux.");
  await expect(rows).toHaveCount(1);
  await expect(page.getByRole("button", { name: /Revoke/ })).toHaveCount(0);

  await laptop.page.goto("/account");
  await expect(laptop.page).toHaveURL("/sign-in?redirectTo=%2Faccount");
  expect(await sessionCookie(laptop.context), "the revoked cookie is cleared").toBeUndefined();

  // The device that revoked stays signed in, and the message was shown once.
  await page.reload();
  await expect(page.getByRole("status")).toHaveCount(0);
  await page.goto("/account");
  await expectSignedInAs(page, user);
  expect(await sessionCookie(context)).toBeDefined();
});
