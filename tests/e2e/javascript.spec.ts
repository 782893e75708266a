// The same pages, progressively enhanced: with JavaScript on, forms submit through Remix and validate in the
// browser first. Hydration problems show up as console errors, which fail these tests.
import {
  expect,
  expectFieldError,
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
  await expectFieldError(page, "Email or username", "Invalid email");
  await expect(page).toHaveURL("/sign-in");

  // Correcting the address clears the error while typing.
  await page.getByLabel("Email").fill("someone@example.com");
  await expect(page.getByLabel("Email")).not.toHaveAttribute("aria-invalid", "true");
  expect(submissions, "nothing was sent to the server").toEqual([]);
});

test("a wrong password shows the form error", async ({ page, user }) => {
  await page.goto("/sign-in");
  await submitSignIn(page, { email: user.email, password: "not the password" });
  await expect(page.getByRole("alert")).toHaveText("Invalid email or password");
  await expect(page).toHaveURL("/sign-in");
});

test("revoking another session updates the list in place", async ({ page, openContext, user }) => {
  await signIn(page, user);
  const phone = await openContext();
  await signIn(phone.page, user);
  await page.reload();
  await expect(page.getByTestId("session-row")).toHaveCount(2);
  await page.getByRole("button", { name: "Revoke" }).click();
  await expect(page.getByTestId("session-row")).toHaveCount(1);
  await phone.page.goto("/account");
  await expect(phone.page).toHaveURL("/sign-in?redirectTo=%2Faccount");
});

test("the account page's sections validate in the browser and show server errors in the right section", async ({ page, user }) => {
  await signIn(page, user);
  await waitForHydration(page);

  // Client-side: a too-short new password is refused before any request is sent.
  let posted = false;
  page.on("request", (request) => {
    if (request.method() === "POST") posted = true;
  });
  await page.getByLabel("Current password").fill(user.password);
  await page.getByLabel("New password").fill("short");
  await page.getByRole("button", { name: "Change password" }).click();
  await expectFieldError(page, "New password", "Password too short");
  expect(posted).toBe(false);

  // Server-side: a wrong current password comes back next to that field, and only in that section.
  await page.getByLabel("Current password").fill("not my password");
  await page.getByLabel("New password").fill("a long enough passphrase");
  await page.getByRole("button", { name: "Change password" }).click();
  await expectFieldError(page, "Current password", "Invalid password");
  await expect(page.getByLabel("New e-mail")).not.toHaveAttribute("aria-invalid", "true");

  // A profile change is confirmed in its own section and shows at once.
  await page.getByLabel("Name", { exact: true }).fill("Ada King");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("status")).toHaveText("Profile saved.");
  await expect(page.getByTestId("account-name")).toHaveText("Ada King");
});
