// The pages around an application's sign-in, read as HTML on both databases (issue 41, ADR 066): the sign-in
// page names the application, the consent page names the account and where the answer goes, "not you?" switches
// to another account on the same request, an expired request is titled as an error, and "last used" follows the
// tokens the application receives.
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp } from "../support/client";
import { applicationSignIn, authorizationRequest, browse, registerClient, relyingParty } from "../support/oidc-clients";
import { startServer, type TestServer } from "../support/server";
import { query } from "../support/sql";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => server?.stop());

const form = (fields: Record<string, string>) => ({ rawBody: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });
// An address set apart (dir="ltr") reads "(ada@…)", not "( ada@… )".
const text = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>|<script[\s\S]*?<\/script>|<!--.*?-->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .replace(/\( /g, "(")
    .replace(/ \)/g, ")");
/** A stored time as milliseconds, whichever way the database gives it back. */
const ms = (value: unknown) => (value instanceof Date ? value.getTime() : typeof value === "number" || typeof value === "bigint" ? Number(value) : Date.parse(String(value)));
const lastUsedAt = async (clientId: string) =>
  ms((await query<{ lastUsedAt: unknown }>(server.database, `SELECT "lastUsedAt" FROM "oidcConsent" WHERE "clientId" = ?`, [clientId]))[0]?.lastUsedAt);

describe("an application's sign-in, from the person's side", () => {
  it("signed out, sign-in says 'to continue to'; consent names the account and the host; 'not you?' signs in another on the same request", async () => {
    const app = await registerClient(server.database, { name: "Team Wiki", redirectUri: "https://wiki.example.com/callback" });
    const config = await relyingParty(app, server.baseUrl);
    const first = new ApiClient(server.baseUrl);
    const ada = await signUp(first, { name: "Ada Lovelace" });
    await first.post("/api/auth/sign-out", {});
    const olga = await signUp(new ApiClient(server.baseUrl), { name: "Olga Other" });

    const started = await authorizationRequest(config, app);
    const signInPage = await browse(first, started.url.href);
    expect(signInPage.url.pathname).toBe("/sign-in");
    expect(text(signInPage.response!.text)).toContain("Sign in to continue to Team Wiki");
    const redirectTo = signInPage.url.searchParams.get("redirectTo")!;
    expect((await first.post("/api/auth/sign-in/email", { email: ada.email, password: PASSWORD })).status).toBe(200);

    const consent = await browse(first, redirectTo);
    const consentText = text(consent.response!.text);
    expect(consentText).toContain("Allow Team Wiki to use your account?");
    expect(consentText).toContain(`Signed in as Ada Lovelace (${ada.email}) — not you?`);
    expect(consentText).toContain("you will be sent back to wiki.example.com");

    // Not Ada: signed out, back through sign-in to the same request, where Olga is asked.
    const switched = await first.request("POST", consent.url.pathname, form({ intent: "switch-account" }));
    expect(switched.status).toBe(302);
    expect(switched.headers.get("location")).toBe(`/sign-in?${new URLSearchParams({ redirectTo: consent.url.pathname })}`);
    expect((await first.get("/api/auth/get-session")).body).toBeNull();
    expect((await first.post("/api/auth/sign-in/email", { email: olga.email, password: PASSWORD })).status).toBe(200);
    const asked = await browse(first, consent.url.pathname);
    expect(text(asked.response!.text)).toContain(`Signed in as Olga Other (${olga.email})`);
    const allowed = await first.request("POST", asked.url.pathname, form({ intent: "allow" }));
    const back = await browse(first, allowed.headers.get("location")!);
    const tokens = await oidc.authorizationCodeGrant(config, back.callback!, { pkceCodeVerifier: started.verifier, expectedState: started.state, expectedNonce: started.nonce });
    expect(tokens.claims()).toMatchObject({ email: olga.email });
  });

  it("the consent page links the application's own site when it was registered with one, and says nothing of one otherwise", async () => {
    const withSite = await registerClient(server.database, { name: "Site App", homepageUrl: "https://site-app.example.com/" });
    const withoutSite = await registerClient(server.database, { name: "No Site App" });
    const person = new ApiClient(server.baseUrl);
    await signUp(person);
    for (const [app, expected] of [[withSite, "https://site-app.example.com/"], [withoutSite, null]] as const) {
      const consent = await browse(person, (await authorizationRequest(await relyingParty(app, server.baseUrl), app)).url.href);
      const html = consent.response!.text;
      if (expected) {
        expect(html).toContain(`href="${expected}"`);
        expect(text(html)).toContain("Site App (site-app.example.com) would like to");
      } else {
        expect(html).not.toContain('data-testid="client-site"');
      }
    }
  });

  it("an expired request is titled 'Error: This request has expired'", async () => {
    const page = await new ApiClient(server.baseUrl).get("/oauth2/interaction/no-longer-open");
    expect(page.status).toBe(410);
    expect(page.text).toContain("<title>Error: This request has expired · Latchkey</title>");
  });

  it("'last used' is when the application last received tokens: the code exchange, then each refresh", async () => {
    const app = await registerClient(server.database, { name: "Used App" });
    const config = await relyingParty(app, server.baseUrl);
    const browser = new ApiClient(server.baseUrl);
    await signUp(browser, { name: "Ada Lovelace" });
    const before = Date.now();
    const tokens = await applicationSignIn(config, app, browser, { scope: "openid email offline_access", prompt: "consent" });
    const exchanged = await lastUsedAt(app.clientId);
    expect(exchanged).toBeGreaterThanOrEqual(before - 1000);
    await new Promise((resolve) => setTimeout(resolve, 20));
    await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect(await lastUsedAt(app.clientId)).toBeGreaterThan(exchanged);
    const page = text((await browser.get("/account/applications")).text);
    expect(page).toContain("Used App Allowed just now · last used just now");
  });
});
