// Sign-in by e-mailed code (issue 27): "Send a new code" after a refused code starts clean with JavaScript on
// (serious 4), and a code that made a new account says so and asks for a name (serious 2, JavaScript off).
import type { Page } from "@playwright/test";
import { expect, expectErrorSummary, expectStatus, test, waitForHydration } from "./fixtures";
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

    await page.getByLabel("Code").fill(second);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).toHaveURL("/account");
  });
});
