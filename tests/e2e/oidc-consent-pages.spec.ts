// The pages around an application's sign-in request (issue 41), JavaScript off: the sign-in page names the
// application ("to continue to Team Wiki"), the consent page shows the account, where the answer goes and a way to
// switch accounts (sign out, sign in as the other, come back to the same request), and a request that is gone is
// titled as an error. Axe on every state.
import * as oidc from "openid-client";
import { authorizationRequest, registerClient, relyingParty } from "../support/oidc-clients";
import { query } from "../support/sql";
import { expect, expectNoAxeViolations, PASSWORD, signUp, submitSignIn, test, uniqueEmail } from "./fixtures";

test.use({ javaScriptEnabled: false });

test("signed out, the request names the application; on consent, 'not you?' switches to another account", async ({ page, user, openContext, appServer }) => {
  test.setTimeout(90_000);
  // The other account is made in a browser of its own.
  const other = { name: "Olga Other", email: uniqueEmail("other"), password: PASSWORD };
  const elsewhere = await openContext();
  await signUp(elsewhere.page, other);
  await expect(elsewhere.page).not.toHaveURL(/\/sign-up/);

  const app = await registerClient(appServer.database, { name: "Team Wiki", redirectUri: "https://wiki.example.com/callback" });
  const config = await relyingParty(app, appServer.baseUrl);
  const { url: authorizationUrl, verifier, state, nonce } = await authorizationRequest(config, app);
  let callback: URL | null = null;
  await page.route(`${app.redirectUri}**`, async (route) => {
    callback = new URL(route.request().url());
    await route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><html lang=en><title>Team Wiki</title><h1>Signed in</h1></html>" });
  });

  await page.goto(authorizationUrl.href);
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Foauth2%2Finteraction%2F/);
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await expect(page.getByTestId("continue-to")).toHaveText("to continue to Team Wiki");
  await expectNoAxeViolations(page, "sign-in for an application");
  await submitSignIn(page, user);

  await expect(page.getByRole("heading", { name: "Allow Team Wiki to use your account?" })).toBeVisible();
  await expect(page.getByTestId("consent-account")).toContainText(`Signed in as ${user.name} (${user.email}) — not you?`);
  await expect(page.getByText("Whatever you choose, you will be sent back to wiki.example.com.")).toBeVisible();
  await expectNoAxeViolations(page, "consent with the account");
  // On a phone, in dark mode: nothing to scroll sideways, still nothing for axe.
  await page.setViewportSize({ width: 320, height: 640 });
  await page.emulateMedia({ colorScheme: "dark" });
  await expectNoAxeViolations(page, "consent, phone, dark");
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), "no sideways scrolling at 320px").toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });

  // Not them: signed out, back to the sign-in page for the same request, then the other account's consent.
  await page.getByRole("button", { name: "Sign out and use another account" }).click();
  await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Foauth2%2Finteraction%2F/);
  await expect(page.getByText("You are signed out. Sign in with the account you want to use.")).toBeVisible();
  await expect(page.getByTestId("continue-to")).toHaveText("to continue to Team Wiki");
  await expectNoAxeViolations(page, "sign-in after switching");
  await submitSignIn(page, other);
  await expect(page.getByRole("heading", { name: "Allow Team Wiki to use your account?" })).toBeVisible();
  await expect(page.getByTestId("consent-account")).toContainText(`Signed in as ${other.name} (${other.email})`);
  await page.getByRole("button", { name: "Allow" }).click();

  await expect(page.getByRole("heading", { name: "Signed in" })).toBeVisible();
  const tokens = await oidc.authorizationCodeGrant(config, callback!, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
  expect(tokens.claims()).toMatchObject({ email: other.email, name: other.name });
});

test("a request that is gone is titled as an error", async ({ browser, baseURL }) => {
  // A context of its own: the fixture's page counts the 410 this page is answered with as a failure.
  const page = await (await browser.newContext({ baseURL, javaScriptEnabled: false })).newPage();
  const answer = await page.goto("/oauth2/interaction/no-such-request");
  expect(answer?.status()).toBe(410);
  await expect(page).toHaveTitle("Error: This request has expired · Latchkey");
  await expect(page.getByRole("heading", { level: 1, name: "This request has expired" })).toBeVisible();
  await expectNoAxeViolations(page, "expired request");
  await page.context().close();
});

test("without an application's request, the sign-in page names none", async ({ page }) => {
  await page.goto("/sign-in?redirectTo=%2Foauth2%2Finteraction%2Fmade-up");
  await expect(page.getByRole("heading", { level: 1, name: "Sign in" })).toBeVisible();
  await expect(page.getByTestId("continue-to")).toHaveCount(0);
});

test("an application's ui_locales reach its consent page: an account without a language keeps the one it signed in with", async ({ page, user, appServer }) => {
  // An account made before there were languages (issue 44): it takes the language of its next sign-in.
  await query(appServer.database, `UPDATE "user" SET "locale" = NULL WHERE "email" = ?`, [user.email]);
  const app = await registerClient(appServer.database, { name: "Team Wiki", redirectUri: "https://wiki.example.com/callback" });
  const { url } = await authorizationRequest(await relyingParty(app, appServer.baseUrl), app, { ui_locales: "fr" });
  await page.goto(url.href);
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await page.locator('input[name="email"]').fill(user.email);
  await page.locator('input[name="password"]').fill(user.password);
  await page.getByRole("button", { name: "Se connecter", exact: true }).click();
  await expect(page).toHaveURL(/\/oauth2\/interaction\//);
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
  await expect(page).toHaveTitle("Autoriser l’accès · Latchkey");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Autoriser Team Wiki à utiliser votre compte ?");
  await expect(page.getByRole("listitem").filter({ hasText: "Voir votre adresse e-mail" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Autoriser", exact: true })).toBeVisible();
  await expectNoAxeViolations(page, "consent in French");
  // Saved: the account's pages are French from now on, whatever the browser asks for.
  await page.goto("/account");
  await expect(page.locator("html")).toHaveAttribute("lang", "fr");
});
