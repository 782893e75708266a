// "Continue with …" through a real local OpenID provider, with JavaScript off: the button is a plain form, the
// server sends the browser to the provider, and the provider's return signs it in.
import { expect, expectErrorSummary, expectSignedInAs, expectStatus, PASSWORD, signUp, submitSignIn, test, uniqueEmail } from "./fixtures";
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
  await expectErrorSummary(page, ["This is your only way to sign in. Set a password or link another account first."]);
  await expect(page.getByRole("button", { name: "Unlink Test SSO" })).toBeVisible();
});

test("a password account links the provider from Linked accounts, then signs in with it", async ({ page }) => {
  const user = { name: "Dorothy Vaughan", email: uniqueEmail("link"), password: PASSWORD };
  await signUp(page, user);
  await providerWillVouchFor({ sub: `sub-${user.email}`, email: user.email, email_verified: true, name: user.name });
  await page.goto("/account/linked-accounts");
  await page.getByRole("button", { name: "Link Test SSO" }).click();
  await expect(page).toHaveURL("/account/linked-accounts");
  await expectStatus(page, "Test SSO is linked. You can sign in with it now.");
  await expect(page.getByRole("button", { name: "Unlink Test SSO" })).toBeVisible();

  // Unlinking comes back with its own confirmation; linking again works as before.
  await page.getByRole("button", { name: "Unlink Test SSO" }).click();
  await expect(page).toHaveURL("/account/linked-accounts");
  await expectStatus(page, "Test SSO is unlinked.");
  await page.getByRole("button", { name: "Link Test SSO" }).click();
  await expectStatus(page, "Test SSO is linked. You can sign in with it now.");
  // A reload does not repeat it.
  await page.reload();
  await expect(page.getByRole("status")).toHaveCount(0);

  await page.goto("/account");
  await page.getByRole("button", { name: "Sign out" }).click();
  await page.goto("/sign-in");
  await page.getByRole("button", { name: "Continue with Test SSO" }).click();
  await expectSignedInAs(page, user);
});

test("?linked= typed into the address confirms nothing that did not happen", async ({ page }) => {
  const user = { name: "Katherine Johnson", email: uniqueEmail("not-linked"), password: PASSWORD };
  await signUp(page, user);
  for (const value of ["1", "oidc", "github"]) {
    await page.goto(`/account/linked-accounts?linked=${value}`);
    await expect(page).toHaveURL("/account/linked-accounts");
    await expect(page.getByRole("status")).toHaveCount(0);
    await expect(page.getByText(/is linked|Account linked/)).toHaveCount(0);
  }
});

test("a provider's refusal to link comes back to Linked accounts in the focused error summary", async ({ page }) => {
  const user = { name: "Annie Easley", email: uniqueEmail("link-error"), password: PASSWORD };
  await signUp(page, user);
  await page.goto("/account/linked-accounts?error=account_already_linked_to_different_user");
  await expectErrorSummary(page, ["That provider account is already linked to another user."]);
  await expect(page.getByRole("alert")).toHaveCount(0);
});

test("a provider error comes back to the sign-in page in words, in the focused error summary", async ({ page }) => {
  await page.goto("/sign-in?error=access_denied");
  await expectErrorSummary(page, ["You cancelled the sign-in at the provider. Nothing was changed."]);
  await expect(page).toHaveTitle("Error: Sign in · Latchkey");
  // Present on load, an alert is not announced: the summary (focused, in the title) is what is read.
  await expect(page.getByRole("alert")).toHaveCount(0);

  // A new try with the password has its own outcome: the provider's old refusal is not repeated beside it.
  await submitSignIn(page, { email: uniqueEmail("nobody"), password: PASSWORD });
  await expectErrorSummary(page, ["That email and password don't match. Check both and try again."]);
  await expect(page.locator(".error-summary")).not.toContainText("You cancelled");
});

test("a refused Continue with … (too many tries, an unknown provider) lands on sign-in in the error summary", async ({ page }) => {
  await page.goto("/sign-in?error=too_many_requests");
  await expectErrorSummary(page, ["Too many attempts. Try again in a minute."]);
  await expect(page.getByRole("alert")).toHaveCount(0);

  // The button's own post, for a provider the server does not offer: it comes back to sign-in and says so.
  await page.goto("/sign-in");
  await page.route("**/sign-in/social", (route) => route.continue({ postData: "provider=no-such-provider" }));
  await page.getByRole("button", { name: "Continue with Test SSO" }).click();
  await expect(page).toHaveURL("/sign-in?error=oauth_provider_not_found");
  await expectErrorSummary(page, ["That provider is not available."]);
  await expect(page).toHaveTitle("Error: Sign in · Latchkey");
});

test("a provider error on the sign-up page sits in its error summary too", async ({ page }) => {
  await page.goto("/sign-up?error=email_not_found");
  await expectErrorSummary(page, ["The provider did not share your email address, which an account needs."]);
  await expect(page).toHaveTitle("Error: Sign up · Latchkey");
  await expect(page.getByRole("alert")).toHaveCount(0);
});
