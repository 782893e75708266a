// Codes that survive being written down, and usernames refused in words for people (issue 27, serious 3 and 7),
// with JavaScript off: the server reads every typed code alike (ADR 037) and words every username refusal.
import type { APIRequestContext, Page } from "@playwright/test";
import { Secret, TOTP } from "otpauth";
import { expect, expectErrorSummary, expectFieldError, expectSignedInAs, PASSWORD, signIn, test, uniqueEmail, type TestUser } from "./fixtures";
import { countMail, waitForMail } from "./mail";

test.use({ javaScriptEnabled: false });

const USERNAME_RULE = "Use 3 to 30 letters, digits, dots (.) and underscores (_), with no spaces.";
/** ADR 037: one case, no I, O, 0 or 1; spec §3: two groups of 5 joined by a dash. */
const BACKUP_CODE = /^[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}$/;

/** Two-factor switched on through the JSON API (the pages' own set-up is the two-factor spec's story). */
async function withTwoFactor(request: APIRequestContext, baseURL: string, user: TestUser): Promise<string[]> {
  const headers = { Origin: baseURL };
  expect((await request.post("/api/auth/sign-in/email", { data: { email: user.email, password: PASSWORD }, headers })).status()).toBe(200);
  const enabled = await request.post("/api/auth/two-factor/enable", { data: { password: PASSWORD }, headers });
  expect(enabled.status(), await enabled.text()).toBe(200);
  const { totpURI, backupCodes } = (await enabled.json()) as { totpURI: string; backupCodes: string[] };
  const secret = new URL(totpURI).searchParams.get("secret")!;
  const code = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: "SHA1" }).generate();
  const confirmed = await request.post("/api/auth/two-factor/verify-totp", { data: { code }, headers });
  expect(confirmed.status(), await confirmed.text()).toBe(200);
  expect((await request.post("/api/auth/sign-out", { headers })).status()).toBe(200);
  return backupCodes;
}

async function passwordStep(page: Page, identifier: string, password = PASSWORD) {
  await page.goto("/sign-in");
  await page.getByLabel("Email or username").fill(identifier);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

test("a backup code typed in lower case with a space instead of the dash signs in; new codes have no look-alikes", async ({ page, user, request, baseURL }) => {
  const backupCodes = await withTwoFactor(request, baseURL!, user);
  for (const code of backupCodes) expect(code).toMatch(BACKUP_CODE);
  await passwordStep(page, user.email);
  await expect(page).toHaveURL("/two-factor");
  // Authenticator codes are digits: the number pad on phones.
  await expect(page.getByLabel("Code")).toHaveAttribute("inputmode", "numeric");
  await page.getByRole("link", { name: "Use a backup code" }).click();
  // Backup codes have letters: the full keyboard.
  await expect(page.getByLabel("Backup code")).not.toHaveAttribute("inputmode", /.*/);
  await page.getByLabel("Backup code").fill(` ${backupCodes[0].toLowerCase().replace("-", " ")} `);
  await page.getByRole("button", { name: "Verify" }).click();
  await expectSignedInAs(page, user);
});

test("an e-mailed sign-in code typed '123 456' signs in; an empty one is asked for in the page's words", async ({ page, user }) => {
  await page.goto("/sign-in/code");
  const seen = await countMail(user.email, /sign-in code/);
  await page.getByLabel("Email").fill(user.email);
  await page.getByRole("button", { name: "Email me a sign-in code" }).click();
  const code = (await waitForMail(user.email, /sign-in code/, { after: seen })).text.match(/Your code: (\d{6})/)![1];
  await expect(page.getByLabel("Code")).toHaveAttribute("inputmode", "numeric");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expectErrorSummary(page, ["Enter the code from the email."]);
  await expect(page.getByText("Code is required")).toHaveCount(0);
  await page.getByLabel("Code").fill(`${code.slice(0, 3)} ${code.slice(3)}`);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expectSignedInAs(page, user);
});

test("usernames: the rule beside the field and after each refusal, and the same words as for e-mail", async ({ page, request }) => {
  const taken = `Ada_${Date.now().toString(36)}`;
  const owner = { name: "Ada Owner", email: uniqueEmail("username-owner"), password: PASSWORD, username: taken };
  expect((await request.post("/api/auth/sign-up/email", { data: owner })).status()).toBe(200);

  // The rule is read with the field before anything is typed.
  await page.goto("/sign-up");
  await expect(page.getByLabel("Username (optional)")).toHaveAccessibleDescription(new RegExp(USERNAME_RULE.replace(/[.()]/g, "\\$&")));
  const user = { name: "Grace Hopper", email: uniqueEmail("username"), password: PASSWORD };
  const signUpWith = async (username: string) => {
    await page.getByLabel("Name", { exact: true }).fill(user.name);
    await page.getByLabel("Email").fill(user.email);
    await page.getByLabel("Username (optional)").fill(username);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
  };
  await signUpWith("grace hopper");
  const invalid = `That username has a character it can't have. ${USERNAME_RULE}`;
  await expectErrorSummary(page, [invalid]);
  await expectFieldError(page, "Username (optional)", invalid);
  await expect(page.getByText(/Username is invalid/)).toHaveCount(0);

  await signUpWith(taken.toUpperCase());
  await expectErrorSummary(page, ["That username is already taken. Choose another one."]);
  await expectFieldError(page, "Username (optional)", "That username is already taken. Choose another one.");
  await expect(page.getByText("please try another")).toHaveCount(0);

  // Sign-in: the same words as for an e-mail address.
  await passwordStep(page, taken, "not the password");
  await expectErrorSummary(page, ["That username and password don't match. Check both and try again."]);
  await expect(page.getByText(/invalid username or password/)).toHaveCount(0);

  // The profile page: the rule beside the field, and after a refusal.
  await signIn(page, owner);
  await page.goto("/account/profile");
  await expect(page.getByLabel("Username")).toHaveAccessibleDescription(new RegExp(USERNAME_RULE.replace(/[.()]/g, "\\$&")));
  await page.getByLabel("Username").fill("ab");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expectErrorSummary(page, [`That username is too short. ${USERNAME_RULE}`]);
  await expect(page.getByText(/Username is too short/)).toHaveCount(0);
});
