// The account's life by e-mail, in a browser with JavaScript off: every link is read from a real SMTP server.
import {
  expect,
  expectErrorSummary,
  expectFieldError,
  expectNoAxeViolations,
  expectSignedInAs,
  expectStatus,
  PASSWORD,
  signIn,
  signUp,
  submitSignIn,
  test,
  uniqueEmail,
} from "./fixtures";
import { countMail, linkFromMail, waitForMail } from "./mail";

test.use({ javaScriptEnabled: false });

const VERIFY = /Verify your email/;
const RESET = /Reset your password/;
const CONFIRM_CHANGE = /Confirm your new email/;
const CONFIRM_DELETE = /Confirm the deletion/;

test("sign up, verify by e-mail, forget the password, reset it by e-mail, sign in with the new one", async ({ page }) => {
  test.slow(); // a whole story with six axe checks, and the suite's first page loads: 27–30 s on two busy cores
  const user = { name: "Katherine Johnson", email: uniqueEmail("lifecycle"), password: PASSWORD };
  await signUp(page, user);
  await expectSignedInAs(page, user);
  await expect(page.getByText("is not verified yet")).toBeVisible();

  await page.goto(await linkFromMail(user.email, VERIFY));
  await expect(page).toHaveURL("/email-verified");
  await expectStatus(page, `Your email address ${user.email} is verified.`);
  // The message was for that visit only: the page opened again claims nothing.
  await page.reload();
  await expect(page.getByText("There is nothing to confirm here.")).toBeVisible();
  await page.goto("/account");
  await expect(page.getByText("is not verified yet")).toHaveCount(0);
  await page.getByRole("button", { name: "Sign out" }).click();

  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expectStatus(page, `If an account uses ${user.email}`);

  const resetLink = await linkFromMail(user.email, RESET);
  await page.goto(resetLink);
  await expect(page).toHaveURL(/\/reset-password\?token=/);
  const newPassword = "a brand new passphrase";
  await expectNoAxeViolations(page, "reset form");
  await page.getByLabel("New password").fill(newPassword);
  await page.getByRole("button", { name: "Reset password" }).click();
  await expect(page).toHaveURL("/sign-in?reset=1");
  await expectStatus(page, "Your password was reset");
  // The address comes prefilled after a reset.
  await expect(page.getByLabel("Email")).toHaveValue(user.email);

  await submitSignIn(page, { email: user.email, password: user.password });
  await expectErrorSummary(page, ["That email and password don't match."]);
  await submitSignIn(page, { email: user.email, password: newPassword });
  await expectSignedInAs(page, user);

  // The link worked once.
  await page.goto(resetLink);
  await expect(page.getByRole("heading", { name: "This link cannot be used" })).toBeVisible();
  await expectNoAxeViolations(page, "used reset link");
});

test("an unknown address gets the same confirmation and no mail", async ({ page, user }) => {
  const unknown = uniqueEmail("nobody");
  const confirmations: string[] = [];
  for (const email of [unknown, user.email]) {
    await page.goto("/forgot-password");
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    confirmations.push((await page.getByRole("status").innerText()).replace(email.toLowerCase(), "ADDRESS"));
  }
  expect(confirmations[0]).toContain("If an account uses ADDRESS");
  expect(confirmations[1]).toBe(confirmations[0]);
  // The known address's mail, asked for second, has arrived: nothing is on its way to the unknown one.
  await waitForMail(user.email, RESET);
  expect(await countMail(unknown, RESET)).toBe(0);
});

test("change the password on the account page, signing out other devices", async ({ page, user, openContext }) => {
  await signIn(page, user);
  const other = await openContext();
  await signIn(other.page, user);

  await page.goto("/account");
  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Security" }).click();
  await expect(page).toHaveURL("/account/security");
  await expectNoAxeViolations(page, "security");
  await page.getByLabel("Current password").fill("not my password");
  await page.getByLabel("New password").fill("another long passphrase");
  await page.getByRole("button", { name: "Change password" }).click();
  await expectErrorSummary(page, ["That isn't your current password."]);
  await expectFieldError(page, "Current password", "That isn't your current password.");

  await page.getByLabel("Current password").fill(user.password);
  await page.getByLabel("New password").fill("another long passphrase");
  await page.getByLabel("Sign out of other devices").check();
  await page.getByRole("button", { name: "Change password" }).click();
  await expect(page).toHaveURL("/account/security");
  await expectStatus(page, "Password changed. Your other devices are signed out.");
  await expect(page).not.toHaveTitle(/^Error/);
  await page.goto("/account");

  await other.page.goto("/account");
  await expect(other.page).toHaveURL(/\/sign-in/);
  await page.getByRole("button", { name: "Sign out" }).click();
  await signIn(page, { email: user.email, password: "another long passphrase" });
});

test("a verified user changes e-mail: confirm from the old inbox, then verify the new one", async ({ page }) => {
  const user = { name: "Dorothy Vaughan", email: uniqueEmail("old"), password: PASSWORD };
  const newEmail = uniqueEmail("new");
  await signUp(page, user);
  await page.goto(await linkFromMail(user.email, VERIFY));
  await page.goto("/account/profile");

  await page.getByLabel("New email").fill(newEmail);
  await page.getByRole("button", { name: "Change email" }).click();
  await expect(page).toHaveURL("/account/profile");
  await expectStatus(page, `We sent a confirmation link to ${user.email}`);
  await page.goto("/account");
  await expect(page.getByTestId("account-email")).toHaveText(user.email);

  await page.goto(await linkFromMail(user.email, CONFIRM_CHANGE));
  await expect(page).toHaveURL("/email-verified");
  // Not "verified": the change is confirmed, and the new address still has its own link to follow.
  await expectStatus(page, `Change confirmed: your email address is now ${newEmail}. We sent a verification link to it`);
  await expect(page.getByText(/is verified/)).toHaveCount(0);
  await page.goto("/account");
  await expect(page.getByTestId("account-email")).toHaveText(newEmail);
  await expect(page.getByText("is not verified yet")).toBeVisible();

  await page.goto(await linkFromMail(newEmail, VERIFY));
  await expectStatus(page, `Your email address ${newEmail} is verified.`);
  await page.goto("/account");
  await expect(page.getByText("is not verified yet")).toHaveCount(0);
  await expectSignedInAs(page, { name: user.name, email: newEmail });
});

test("delete the account with the e-mailed confirmation; signing in then fails", async ({ page, user }) => {
  await signIn(page, user);
  await page.getByRole("link", { name: "Delete account" }).click();
  await expect(page).toHaveURL("/account/delete");
  await expectNoAxeViolations(page, "delete");
  // The confirmation step: the address must be typed out.
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Type your email address to confirm").fill("someone-else@example.com");
  await page.getByRole("button", { name: "Delete account" }).click();
  await expectErrorSummary(page, ["That isn't your email address."]);
  expect(await countMail(user.email, CONFIRM_DELETE)).toBe(0);

  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Type your email address to confirm").fill(user.email.toUpperCase());
  await page.getByRole("button", { name: "Delete account" }).click();
  await expectStatus(page, `We sent a confirmation link to ${user.email}`);

  await page.goto(await linkFromMail(user.email, CONFIRM_DELETE));
  await expect(page).toHaveURL("/account-deleted");
  await expect(page.getByRole("heading", { name: "Your account is deleted" })).toBeVisible();

  await page.goto("/sign-in");
  await submitSignIn(page, user);
  await expectErrorSummary(page, ["That email and password don't match."]);
});
