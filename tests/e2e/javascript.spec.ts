// The same pages, progressively enhanced: with JavaScript on, forms submit through Remix and validate in the
// browser first. Hydration problems show up as console errors, which fail these tests.
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
  waitForHydration,
} from "./fixtures";

test.use({ javaScriptEnabled: true });

test("a visitor signs up, signs out, and signs back in", async ({ page, context }) => {
  const user = { name: "Katherine Johnson", email: uniqueEmail("js-sign-up"), password: PASSWORD };
  await signUp(page, user);
  await expectSignedInAs(page, user);

  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
  await expect(page.getByRole("link", { name: "Sign in" })).toBeVisible();
  expect(await sessionCookie(context)).toBeUndefined();

  await signIn(page, user);
  await expectSignedInAs(page, user);
  expect((await sessionCookie(context))!.expires).toBeGreaterThan(Date.now() / 1000);
});

test("sign-in without Remember me gives a browser-session cookie", async ({ page, context, user }) => {
  await signIn(page, user, { rememberMe: false });
  await expectSignedInAs(page, user);
  expect((await sessionCookie(context))!.expires).toBe(-1);
});

test("a signed-out visit to the account page comes back to it after signing in", async ({ page, user }) => {
  await page.goto("/account?x=1");
  await expect(page).toHaveURL("/sign-in?redirectTo=%2Faccount%3Fx%3D1");
  await submitSignIn(page, user);
  await expect(page).toHaveURL("/account?x=1");
});

test("submitting an invalid e-mail is refused in the browser, without a round trip", async ({ page }) => {
  await page.goto("/sign-in");
  await waitForHydration(page);
  const submissions: string[] = [];
  page.on("request", (request) => {
    if (request.method() !== "GET") submissions.push(`${request.method()} ${request.url()}`);
  });

  await page.getByLabel("Password").fill("anything at all");
  await page.getByLabel("Email").fill("not-an-email");
  // Enter submits from the field itself: the error comes from submit-time validation, not from a blur.
  await page.getByLabel("Email").press("Enter");
  await expectErrorSummary(page, ["Enter an email address like ada@example.com, or your username."]);
  await expectFieldError(page, "Email or username", "Enter an email address like ada@example.com, or your username.");
  await expect(page).toHaveURL("/sign-in");

  // Correcting the address clears the error while typing.
  await page.getByLabel("Email").fill("someone@example.com");
  await expect(page.getByLabel("Email")).not.toHaveAttribute("aria-invalid", "true");
  await expect(page).not.toHaveTitle(/^Error/);
  expect(submissions, "nothing was sent to the server").toEqual([]);
});

test("a wrong password shows the form error", async ({ page, user }) => {
  await page.goto("/sign-in");
  await waitForHydration(page);
  await submitSignIn(page, { email: user.email, password: "not the password" });
  await expectErrorSummary(page, ["That email and password don't match. Check both and try again."]);
  await expect(page).toHaveURL("/sign-in");
  // The same answer to a second try is announced again: focus goes back to the summary.
  await page.getByLabel("Password").focus();
  await submitSignIn(page, { email: user.email, password: "still not the password" });
  await expect(page.locator(".error-summary")).toBeFocused();
});

test("revoking another session updates the list in place", async ({ page, openContext, user }) => {
  await signIn(page, user);
  const phone = await openContext();
  await signIn(phone.page, user);
  await page.goto("/account/sessions");
  await waitForHydration(page);
  await expect(page.getByTestId("session-row")).toHaveCount(2);
  await expectNoAxeViolations(page, "sessions");
  await page.getByRole("button", { name: /Revoke/ }).click();
  await expect(page.getByTestId("session-row")).toHaveCount(1);
  await expectStatus(page, "Signed out Chrome on Linux.");
  await phone.page.goto("/account");
  await expect(phone.page).toHaveURL("/sign-in?redirectTo=%2Faccount");
});

test("the account page's sections validate in the browser and show server errors in the right section", async ({ page, user }) => {
  await signIn(page, user);
  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Security" }).click();
  await expect(page).toHaveURL("/account/security");
  await waitForHydration(page);
  await expectNoAxeViolations(page, "security");

  // Client-side: a too-short new password is refused before any request is sent.
  let posted = false;
  page.on("request", (request) => {
    if (request.method() === "POST") posted = true;
  });
  await page.getByLabel("Current password").fill(user.password);
  await page.getByLabel("New password").fill("short");
  await page.getByRole("button", { name: "Change password" }).click();
  await expectErrorSummary(page, ["Use at least 8 characters."]);
  await expectFieldError(page, "New password", "Use at least 8 characters.");
  expect(posted).toBe(false);

  // Server-side: a wrong current password comes back next to that field, and only in that section.
  await page.getByLabel("Current password").fill("not my password");
  await page.getByLabel("New password").fill("a long enough passphrase");
  await page.getByRole("button", { name: "Change password" }).click();
  await expectErrorSummary(page, ["That isn't your current password."]);
  await expectFieldError(page, "Current password", "That isn't your current password.");

  // A profile change is confirmed at the top of its page, focused, and the form keeps the new value.
  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Profile" }).click();
  await expect(page).toHaveURL("/account/profile");
  await expect(page).not.toHaveTitle(/^Error/);
  await page.getByLabel("Name", { exact: true }).fill("Ada King");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expectStatus(page, "Profile saved.");
  await expect(page.getByLabel("Name", { exact: true })).toHaveValue("Ada King");
  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Overview" }).click();
  await expect(page.getByTestId("account-name")).toHaveText("Ada King");
});
