// Sign-in by e-mailed code (issue 27): "Send a new code" after a refused code starts clean with JavaScript on
// (serious 4), and a code that made a new account says so and asks for a name (serious 2, JavaScript off).
import type { Page } from "@playwright/test";
import { expect, expectErrorSummary, expectNoAxeViolations, expectStatus, test, uniqueEmail, waitForHydration } from "./fixtures";
import { countMail, waitForMail } from "./mail";

const CODE_MAIL = /sign-in code/;

/** Asks for a code on the current /sign-in/code page (or presses "Send a new code") and returns it. */
async function codeFromMail(page: Page, email: string, button: string): Promise<string> {
  const seen = await countMail(email, CODE_MAIL);
  await page.getByRole("button", { name: button }).click();
  const mail = await waitForMail(email, CODE_MAIL, { after: seen });
  return mail.text.match(/Your code: (\d{6})/)![1];
}

const wrongCode = (code: string) => code.replace(/\d$/, (digit) => String((Number(digit) + 1) % 10));

test.describe("with JavaScript on", () => {
  test.use({ javaScriptEnabled: true });

  test('"Send a new code" after a refused code clears the old error, its focus and its title', async ({ page, user }) => {
    await page.goto("/sign-in/code");
    await waitForHydration(page);
    await page.getByLabel("Email").fill(user.email);
    const first = await codeFromMail(page, user.email, "Email me a sign-in code");
    await expect(page.getByRole("heading", { name: "Enter your code", level: 1 })).toBeVisible();

    await page.getByLabel("Code").fill(wrongCode(first));
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expectErrorSummary(page, ["That code is not right."]);

    const second = await codeFromMail(page, user.email, "Send a new code");
    await expectStatus(page, `If ${user.email} can sign in here, we sent it a 6-digit code.`);
    await expect(page.locator(".error-summary")).toHaveCount(0);
    await expect(page.getByLabel("Code")).not.toHaveAttribute("aria-invalid", "true");
    await expect(page).toHaveTitle(/^Sign in with a code/);

    // An account that already exists is simply signed in: no welcome step.
    await page.getByLabel("Code").fill(second);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL("/account");
  });
});

test.describe("with JavaScript off", () => {
  test.use({ javaScriptEnabled: false });

  test("a code that creates an account says so and asks for a name", async ({ page }) => {
    const email = uniqueEmail("new-by-code");
    await page.goto("/sign-in/code");
    await page.getByLabel("Email").fill(email);
    const code = await codeFromMail(page, email, "Email me a sign-in code");
    // A refused code keeps the address, and the page still says where the code went.
    await page.getByLabel("Code").fill(wrongCode(code));
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expectErrorSummary(page, ["That code is not right."]);
    await expect(page.getByText(`Enter the 6-digit code we emailed to ${email}.`)).toBeVisible();
    await page.getByLabel("Code").fill(code);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    await expect(page).toHaveURL("/welcome");
    await expect(page.getByRole("heading", { name: "Your account was created", level: 1 })).toBeVisible();
    await expect(page.getByText(`You signed in with a code sent to ${email}`)).toBeVisible();
    await expect(page.getByLabel("Your name")).toBeFocused();
    await expect(page).toHaveTitle(/^Welcome/);
    // Until it has a name, the header names the account by its address.
    await expect(page.locator(".signed-in-as")).toContainText(`Signed in as ${email}`);
    await expectNoAxeViolations(page, "welcome after a code made an account");

    await page.getByRole("button", { name: "Save and continue" }).click();
    await expectErrorSummary(page, ["Enter your name."]);

    await page.getByLabel("Your name").fill("Grace Hopper");
    await page.getByRole("button", { name: "Save and continue" }).click();
    await expect(page).toHaveURL("/account");
    await expectStatus(page, "Thank you, Grace Hopper.");
    await expect(page.locator(".signed-in-as")).toContainText("Signed in as Grace Hopper");
  });

  test("the welcome step keeps where the person was going, and can be skipped", async ({ page }) => {
    const email = uniqueEmail("new-by-code-next");
    await page.goto(`/sign-in/code?redirectTo=${encodeURIComponent("/account/sessions")}`);
    await page.getByLabel("Email").fill(email);
    const code = await codeFromMail(page, email, "Email me a sign-in code");
    await page.getByLabel("Code").fill(code);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL(`/welcome?redirectTo=${encodeURIComponent("/account/sessions")}`);
    await page.getByRole("link", { name: "Skip for now" }).click();
    await expect(page).toHaveURL("/account/sessions");
  });
});
