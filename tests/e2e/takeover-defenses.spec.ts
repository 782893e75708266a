// Issue 39's defenses as people meet them on the pages, without JavaScript (the API's side: tests/api/
// account-lockout.test.ts, new-device-verification.test.ts, breached-passwords.test.ts): the lock's words and
// the other ways in, the new browser's "Confirm it's you" code and the browser known afterwards, and a breached
// password refused on the field. These workers run with a small lockout and new-device verification on.
import Database from "better-sqlite3";
import { expect, expectErrorSummary, expectFieldError, expectNoAxeViolations, test, uniqueEmail, PASSWORD } from "./fixtures";
import { waitForMail } from "./mail";

const MAX_FAILURES = 3;
test.use({ javaScriptEnabled: false, appServerEnv: { AUTH_LOCKOUT_MAX_FAILURES: String(MAX_FAILURES), AUTH_NEW_DEVICE_VERIFICATION: "on" } });

function markVerified(databaseFile: string, email: string) {
  const db = new Database(databaseFile);
  try {
    db.prepare(`UPDATE "user" SET "emailVerified" = 1 WHERE "email" = ?`).run(email);
  } finally {
    db.close();
  }
}

async function trySignIn(page: import("@playwright/test").Page, email: string, password: string) {
  await page.getByLabel("Email or username").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

test("too many wrong passwords from new devices: the page says so, when to try again, and the other ways in", async ({ page, user }) => {
  await page.goto("/sign-in");
  for (let i = 0; i < MAX_FAILURES; i++) {
    await trySignIn(page, user.email, "not the password");
    await expect(page).toHaveTitle(/^Error: /);
  }
  // The right password too: the lock is checked before any password is compared.
  await trySignIn(page, user.email, user.password);
  await expectErrorSummary(page, [
    "There have been too many failed password attempts for this account from new devices. Try again in 60 minutes, or sign in another way: with a passkey, with a code emailed to you, or from a device you have used to sign in before.",
  ]);
  await expectNoAxeViolations(page, "locked");
});

test("a right password from a new browser is confirmed with a mailed code, and the browser is known afterwards", async ({ page, user, appServer }) => {
  markVerified(appServer.database.file, user.email);
  await page.goto("/sign-in");
  await trySignIn(page, user.email, user.password);
  await expect(page).toHaveURL(/\/two-factor/);
  await expect(page.getByRole("heading", { name: "Confirm it's you", level: 1 })).toBeVisible();
  await expect(page.getByRole("status")).toContainText("We emailed you a code to confirm it's you");
  await expectNoAxeViolations(page, "new-device check");
  const mail = await waitForMail(user.email, /Confirm it's you/);
  const code = /\b(\d{6})\b/.exec(mail.text)![1];
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL("/account");

  // Signed out and in again from the same browser: no code this time.
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.goto("/sign-in");
  await trySignIn(page, user.email, user.password);
  await expect(page).toHaveURL("/account");
});

test("a breached or common password is refused on the sign-up form, in words", async ({ page }) => {
  await page.goto("/sign-up");
  await page.getByLabel("Name", { exact: true }).fill("Pat Common");
  await page.getByLabel("Email", { exact: true }).fill(uniqueEmail("breached"));
  await page.getByLabel("Password", { exact: true }).fill("password123");
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  await expectFieldError(
    page,
    "Password",
    "This password is in lists of leaked or common passwords that attackers try first. Choose a different one: a few unrelated words make a strong, memorable password.",
  );
  await expectNoAxeViolations(page, "breached password");
  // A password of one's own goes through.
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  await expect(page).not.toHaveURL(/\/sign-up/);
});
