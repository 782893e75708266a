// "Continue with …" through a real local OpenID provider, with JavaScript off: the button is a plain form, the
// server sends the browser to the provider, and the provider's return signs it in.
import { expect, expectSignedInAs, PASSWORD, signUp, test, uniqueEmail } from "./fixtures";
import { E2E_MAIL_API_PORT } from "./ports";

test.use({ javaScriptEnabled: false });

async function providerWillVouchFor(identity: Record<string, unknown>) {
  await fetch(`http://127.0.0.1:${E2E_MAIL_API_PORT}/idp-identity`, { method: "POST", body: JSON.stringify(identity) });
}

test("Continue with the provider signs a new person up and in, and the account lists the provider", async ({ page }) => {
  const email = uniqueEmail("sso");
  await providerWillVouchFor({ sub: `sub-${email}`, email, email_verified: true, name: "Mary Jackson" });
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Continue with Test SSO" }).click();
  await expect(page).toHaveURL(/\/account/);
  await expectSignedInAs(page, { name: "Mary Jackson", email });

  await page.goto("/account/linked-accounts");
  await expect(page.getByRole("button", { name: "Unlink Test SSO" })).toBeVisible();
  await page.getByRole("button", { name: "Unlink Test SSO" }).click();
  await expect(page.getByRole("alert")).toContainText("only way to sign in");
});

test("a password account links the provider from Linked accounts, then signs in with it", async ({ page }) => {
  const user = { name: "Dorothy Vaughan", email: uniqueEmail("link"), password: PASSWORD };
  await signUp(page, user);
  await providerWillVouchFor({ sub: `sub-${user.email}`, email: user.email, email_verified: true, name: user.name });
  await page.goto("/account/linked-accounts");
  await page.getByRole("button", { name: "Link Test SSO" }).click();
  await expect(page).toHaveURL(/\/account\/linked-accounts\?linked=1/);
  await expect(page.getByRole("status")).toContainText("Account linked");
  await expect(page.getByRole("button", { name: "Unlink Test SSO" })).toBeVisible();

  await page.goto("/account");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Continue with Test SSO" }).click();
  await expectSignedInAs(page, user);
});

test("a provider error comes back to the sign-in page in words", async ({ page }) => {
  await page.goto("/sign-in?error=access_denied");
  await expect(page.getByRole("alert")).toContainText("You cancelled the sign-in at the provider");
});
