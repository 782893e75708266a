// "Sign in with Latchkey" in a browser: an application (openid-client as its server side) sends the person to
// the provider; they sign in on Latchkey's own page, allow the application on the consent page, and come back
// with a code the application exchanges. Then /account/applications revokes it. JavaScript off (the pages are
// plain forms) and on (Remix navigations hand over to the provider with whole-page loads).
import * as oidc from "openid-client";
import { authorizationRequest, registerClient, relyingParty } from "../support/oidc-clients";
import { expect, expectNoAxeViolations, submitSignIn, test } from "./fixtures";


for (const javaScriptEnabled of [false, true]) {
  test.describe(`JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("an application signs a person in through sign-in and consent, and they revoke it later", async ({ page, user, appServer }) => {
      const app = await registerClient(appServer.database, { name: "Team Wiki" });
      const config = await relyingParty(app, appServer.baseUrl);
      const { url: authorizationUrl, verifier, state, nonce } = await authorizationRequest(config, app);
      // The application's callback page, answered here: the browser arrives at it with the code.
      let callback: URL | null = null;
      await page.route(`${app.redirectUri}**`, async (route) => {
        callback = new URL(route.request().url());
        await route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><html lang=en><title>Team Wiki</title><h1>Signed in</h1></html>" });
      });

      await page.goto(authorizationUrl.href);
      await expect(page).toHaveURL(/\/sign-in\?redirectTo=%2Foauth2%2Finteraction%2F/);
      await submitSignIn(page, user);

      await expect(page.getByRole("heading", { name: "Allow Team Wiki to use your account?" })).toBeVisible();
      await expect(page.getByText("See your email address")).toBeVisible();
      await expect(page.getByText("See your name and profile picture")).toBeVisible();
      await expectNoAxeViolations(page, "consent");
      await page.getByRole("button", { name: "Allow" }).click();

      await expect(page.getByRole("heading", { name: "Signed in" })).toBeVisible();
      expect(callback!.searchParams.get("state")).toBe(state);
      const tokens = await oidc.authorizationCodeGrant(config, callback!, { pkceCodeVerifier: verifier, expectedState: state, expectedNonce: nonce });
      expect(tokens.claims()).toMatchObject({ email: user.email, name: user.name });

      await page.goto("/account/applications");
      await expect(page.getByRole("link", { name: "Applications" })).toHaveAttribute("aria-current", "page");
      const row = page.getByTestId("application-row").filter({ hasText: "Team Wiki" });
      // In words people read: when it was allowed and last used (the code exchange above), what it may do as a list.
      await expect(row).toContainText(/Allowed just now · last used just now/);
      await expect(row.getByRole("list", { name: "What Team Wiki may do" }).getByRole("listitem")).toHaveText([
        "Know it's you when you sign in",
        "See your name and profile picture",
        "See your email address",
      ]);
      await expectNoAxeViolations(page, "applications");
      // Revoking asks first; Cancel keeps it.
      await row.getByRole("link", { name: "Revoke access for Team Wiki" }).click();
      await expect(page).toHaveURL(/\/account\/applications\?revoke=/);
      await expect(page.getByRole("group", { name: "Revoke access for Team Wiki?" })).toBeVisible();
      if (javaScriptEnabled) await expect(page.getByRole("group", { name: "Revoke access for Team Wiki?" })).toBeFocused();
      await expectNoAxeViolations(page, "applications, confirm revoking");
      await page.getByRole("link", { name: "Cancel" }).click();
      await expect(page).toHaveURL("/account/applications");
      await expect(row).toBeVisible();
      await row.getByRole("link", { name: "Revoke access for Team Wiki" }).click();
      await page.getByRole("button", { name: "Yes, revoke access" }).click();
      await expect(page.getByText("Team Wiki can no longer use your account.")).toBeVisible();
      await expect(page.getByTestId("application-row").filter({ hasText: "Team Wiki" })).toHaveCount(0);
      await expectNoAxeViolations(page, "applications after revoking");
      await expect(oidc.refreshTokenGrant(config, "x")).rejects.toMatchObject({ error: "invalid_grant" });
      expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    });
  });
}
