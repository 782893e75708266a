// Two-factor authentication, username sign-in and e-mailed sign-in codes in the browser, with JavaScript off:
// every step is a plain HTML form.
import { createRequire } from "node:module";
import type { Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { expect, expectErrorSummary, expectNoAxeViolations, expectSignedInAs, expectStatus, PASSWORD, signIn, test, uniqueEmail, type TestUser } from "./fixtures";
import { countMail, waitForMail } from "./mail";

test.use({ javaScriptEnabled: false });

/** The secret as the page writes it out, in groups of four (as a person types it into an app, without spaces). */
async function secretShown(page: Page): Promise<string> {
  const shown = (await page.getByTestId("totp-secret").textContent())!.trim();
  expect(shown).toMatch(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/);
  await expect(page.getByRole("img", { name: "QR code to add Latchkey to your authenticator app" })).toBeVisible();
  return shown.replace(/ /g, "");
}

/** Codes as an authenticator app computes them from the secret shown on the page; each time step used once. */
function authenticator(secret: string) {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" });
  const used = new Set<number>();
  return () => {
    const now = Math.floor(Date.now() / 30_000);
    const step = [now, now + 1, now - 1].find((s) => !used.has(s))!;
    used.add(step);
    return totp.generate({ timestamp: step * 30_000 + 1000 });
  };
}

async function signOut(page: Page) {
  await page.goto("/account");
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL("/");
}

async function passwordStep(page: Page, identifier: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email or username").fill(identifier);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Signs in, turns two-factor on from the QR page's written-out secret, and returns the app and backup codes. */
async function enableTwoFactor(page: Page, user: TestUser) {
  await signIn(page, user);
  await page.getByRole("navigation", { name: "Account" }).getByRole("link", { name: "Two-factor" }).click();
  await expect(page).toHaveURL("/account/two-factor");
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Enable two-factor authentication" }).click();
  await expect(page.getByRole("img", { name: "QR code" })).toBeVisible();
  expect(await page.getByRole("img", { name: "QR code" }).getAttribute("src")).toMatch(/^data:image\/png;base64,/);
  const nextCode = authenticator(await secretShown(page));

  await page.getByLabel("Code").fill("000000");
  await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expectErrorSummary(page, ["That code is not right. Check the time on your phone and try again."]);
  await page.getByLabel("Code").fill(nextCode());
  await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
  await expectStatus(page, "Two-factor authentication is now on.");
  const backupCodes = (await page.getByRole("list", { name: "Backup codes" }).getByRole("listitem").allTextContents()).map((c) => c.trim());
  expect(backupCodes).toHaveLength(10);
  const download = page.getByRole("link", { name: "Download backup codes" });
  await expect(download).toHaveAttribute("download", "latchkey-backup-codes.txt");
  expect(decodeURIComponent((await download.getAttribute("href"))!)).toContain(backupCodes[0]);
  // Shown once: coming back to the page does not show them again.
  await page.goto("/account/two-factor");
  await expect(page.getByRole("list", { name: "Backup codes" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Disable two-factor authentication" })).toBeVisible();
  return { nextCode, backupCodes };
}

test("two-factor: enable from the QR page, then sign in with an app code, a backup code, and a trusted device", async ({ page, user }) => {
  test.slow(); // four sign-ins, each page checked with axe
  const { nextCode, backupCodes } = await enableTwoFactor(page, user);
  await signOut(page);

  // An app code.
  await passwordStep(page, user.email);
  await expect(page).toHaveURL("/two-factor");
  await expect(page.getByRole("heading", { name: "Two-factor authentication" })).toBeVisible();
  await page.getByLabel("Code").fill("000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expectErrorSummary(page, ["That code is not right. Check it and try again."]);
  await page.getByLabel("Code").fill(nextCode());
  await page.getByRole("button", { name: "Verify" }).click();
  await expectSignedInAs(page, user);
  await signOut(page);

  // A backup code, trusting this device.
  await passwordStep(page, user.email);
  await page.getByRole("link", { name: "Use a backup code" }).click();
  await page.getByLabel("Backup code").fill(backupCodes[0]);
  await page.getByLabel("Trust this device for 30 days").check();
  await page.getByRole("button", { name: "Verify" }).click();
  await expectSignedInAs(page, user);
  await signOut(page);

  // The trusted device skips the second step.
  await passwordStep(page, user.email);
  await expectSignedInAs(page, user);

  // New backup codes: confirmed and shown in one focused status.
  await page.goto("/account/two-factor");
  await page.getByLabel("Your password, to replace the backup codes").fill(PASSWORD);
  await page.getByRole("button", { name: "Generate new backup codes" }).click();
  await expectStatus(page, "New backup codes made. The old ones no longer work.");
  await expect(page.getByRole("status").getByRole("list", { name: "Backup codes" }).getByRole("listitem")).toHaveCount(10);

  // After two-factor is disabled the trust is gone along with it; the password alone signs in again.
  await page.goto("/account/two-factor");
  await page.getByLabel("Your password, to disable two-factor").fill("not the password");
  await page.getByRole("button", { name: "Disable two-factor authentication" }).click();
  await expectErrorSummary(page, ["That isn't your current password."]);
  await page.getByLabel("Your password, to disable two-factor").fill(PASSWORD);
  await page.getByRole("button", { name: "Disable two-factor authentication" }).click();
  // Post/redirect/get: the confirmation is focused at the top, and shown once.
  await expect(page).toHaveURL("/account/two-factor");
  await expectStatus(page, "Two-factor authentication is off.");
  await page.reload();
  await expect(page.getByRole("button", { name: "Enable two-factor authentication" })).toBeVisible();
  await expect(page.getByRole("status")).toHaveCount(0);
  await signOut(page);
  await passwordStep(page, user.email);
  await expectSignedInAs(page, user);
});

test("two-factor: the second step by an e-mailed code, once chosen on the account page", async ({ page, user }) => {
  const { nextCode } = await enableTwoFactor(page, user);
  await signOut(page);
  // Not chosen: the two-factor page offers no code by e-mail; the app finishes the sign-in.
  await passwordStep(page, user.email);
  await expect(page).toHaveURL("/two-factor");
  await expect(page.getByRole("button", { name: "Email me a code" })).toHaveCount(0);
  await page.getByLabel("Code").fill(nextCode());
  await page.getByRole("button", { name: "Verify" }).click();
  await expectSignedInAs(page, user);

  await page.goto("/account/two-factor");
  await page.getByLabel("Your password, to allow codes by email").fill(PASSWORD);
  await page.getByRole("button", { name: "Allow codes by email" }).click();
  await expectStatus(page, "Signing in can now finish with a code by email.");
  await expect(page.getByRole("button", { name: "Stop offering codes by email" })).toBeVisible();
  await signOut(page);

  await passwordStep(page, user.email);
  await expect(page).toHaveURL("/two-factor");
  const seen = await countMail(user.email, /two-factor code/);
  await page.getByRole("button", { name: "Email me a code" }).click();
  await expectStatus(page, "We sent a code to your email address. It works for 5 minutes.");
  const mail = await waitForMail(user.email, /two-factor code/, { after: seen });
  await page.getByLabel("Code").fill(mail.text.match(/Your code: (\d{6})/)![1]);
  await page.getByRole("button", { name: "Verify" }).click();
  await expectSignedInAs(page, user);
});

test("two-factor: after too many wrong codes the sign-in is over, and the sign-in page says why", async ({ page, user }) => {
  test.slow(); // two-factor is switched on first, then six pages of answers
  await enableTwoFactor(page, user);
  await signOut(page);
  await passwordStep(page, user.email);
  await expect(page).toHaveURL("/two-factor");
  for (let attempt = 1; attempt < 5; attempt += 1) {
    await page.getByLabel("Code").fill("000000");
    await page.getByRole("button", { name: "Verify" }).click();
    await expect(page.locator(".error-summary")).toContainText("That code is not right. Check it and try again.");
  }
  // The fifth wrong code ends the attempt: not a form that can no longer work, but the way on.
  await page.getByLabel("Code").fill("000000");
  await page.getByRole("button", { name: "Verify" }).click();
  await expect(page).toHaveURL("/sign-in");
  // A refusal, so it reads as one: in the error summary, with "Error:" in the title, not a green confirmation.
  await expectErrorSummary(page, ["This sign-in ended after too many wrong codes, or took too long. Sign in again with your password."]);
  await expect(page).toHaveTitle(/^Error: Sign in/);
  await expect(page.locator(".notice")).toHaveCount(0);
  await expectNoAxeViolations(page, "sign-in after a second step that ended");
  await passwordStep(page, user.email);
  await expect(page).toHaveURL("/two-factor");
});

test("a username chosen at sign-up signs in through the one 'Email or username' field", async ({ page }) => {
  const user = { name: "Linus Username", email: uniqueEmail("username"), password: PASSWORD };
  const username = `Linus_${Date.now().toString(36)}`;
  await page.goto("/sign-up");
  await page.getByLabel("Name", { exact: true }).fill(user.name);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Username").fill(username);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up" }).click();
  await expectSignedInAs(page, user);
  await page.goto("/account/profile");
  await expect(page.getByLabel("Username")).toHaveValue(username);
  await page.goto("/account");
  await signOut(page);

  await passwordStep(page, username.toUpperCase());
  await expectSignedInAs(page, user);

  // The account's profile page changes it.
  const renamed = `${username}.2`;
  await page.goto("/account/profile");
  await page.getByLabel("Username").fill(renamed);
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Profile saved.")).toBeVisible();
  await page.goto("/account");
  await signOut(page);
  await passwordStep(page, renamed);
  await expectSignedInAs(page, user);
});

test("'Email me a sign-in code': the address, then the mailed code signs in", async ({ page, user }) => {
  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Email me a sign-in code" }).click();
  await expect(page).toHaveURL("/sign-in/code");
  const seen = await countMail(user.email, /sign-in code/);
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Email me a sign-in code" }).click();
  await expect(page.getByRole("heading", { name: "Enter your code" })).toBeVisible();
  const mail = await waitForMail(user.email, /sign-in code/, { after: seen });
  const code = mail.text.match(/Your code: (\d{6})/)![1];
  await page.getByLabel("Code").fill(code === "000000" ? "111111" : "000000");
  await page.getByRole("button", { name: "Sign in" }).click();
  // Worded for people (the JSON API keeps the specification's "Invalid OTP"), next to the field and in the summary.
  await expectErrorSummary(page, ["That code is not right. Check the email and try again, or send a new code."]);
  await expect(page.getByText("Invalid OTP")).toHaveCount(0);
  await page.getByLabel("Code").fill(code);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expectSignedInAs(page, user);
});

test("a code refused too many times is no dead end: 'Send a new code' mails a fresh one to the same address", async ({ page, user }) => {
  const codeFrom = (text: string) => text.match(/Your code: (\d{6})/)![1];
  await page.goto("/sign-in/code");
  const seen = await countMail(user.email, /sign-in code/);
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Email me a sign-in code" }).click();
  await expectStatus(page, `If ${user.email} can sign in here, we sent it a 6-digit code.`);
  const first = codeFrom((await waitForMail(user.email, /sign-in code/, { after: seen })).text);
  const wrong = first === "000000" ? "111111" : "000000";
  for (let attempt = 0; attempt < 3; attempt += 1) {
    await page.getByLabel("Code").fill(wrong);
    await page.getByRole("button", { name: "Sign in" }).click();
  }
  await expectErrorSummary(page, ["That code was entered wrongly too many times and no longer works. Send a new code."]);

  // The address is still known to the page: one button, no retyping.
  await page.getByRole("button", { name: "Send a new code" }).click();
  await expectStatus(page, `If ${user.email} can sign in here, we sent it a 6-digit code.`);
  const second = codeFrom((await waitForMail(user.email, /sign-in code/, { after: seen + 1 })).text);
  await page.getByLabel("Code").fill(second);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expectSignedInAs(page, user);
});

test.describe("with JavaScript on", () => {
  test.use({ javaScriptEnabled: true });

  test("two-factor: enable, then sign in with an app code", async ({ page, user }) => {
    const { nextCode } = await enableTwoFactor(page, user);
    await signOut(page);
    await passwordStep(page, user.email);
    await expect(page).toHaveURL("/two-factor");
    await page.getByLabel("Code").fill(nextCode());
    await page.getByRole("button", { name: "Verify" }).click();
    await expectSignedInAs(page, user);
  });
});

test.describe("accessibility", () => {
  test.use({ javaScriptEnabled: true, bypassCSP: true });

  async function expectNoAxeViolations(page: Page) {
    await page.addScriptTag({ path: createRequire(import.meta.url).resolve("axe-core/axe.min.js") });
    const violations = await page.evaluate(async () => {
      const result = await (window as unknown as { axe: { run: () => Promise<{ violations: Array<{ id: string; nodes: unknown[] }> }> } }).axe.run();
      return result.violations.map((v) => `${v.id} (${v.nodes.length})`);
    });
    expect(violations, page.url()).toEqual([]);
  }

  test("the new pages pass axe: sign-in code, two-factor step, account two-factor set-up", async ({ page, user }) => {
    await page.goto("/sign-in/code");
    await expectNoAxeViolations(page);
    await signIn(page, user);
    await page.goto("/account/two-factor");
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Enable two-factor authentication" }).click();
    await expect(page.getByRole("img", { name: "QR code" })).toBeVisible();
    await expectNoAxeViolations(page);
    const nextCode = authenticator(await secretShown(page));
    await page.getByLabel("Code").fill(nextCode());
    await page.getByRole("button", { name: "Turn on two-factor authentication" }).click();
    await expect(page.getByRole("list", { name: "Backup codes" })).toBeVisible();
    await expectNoAxeViolations(page);
    await signOut(page);
    await passwordStep(page, user.email);
    await expect(page).toHaveURL("/two-factor");
    await expectNoAxeViolations(page);
  });
});
