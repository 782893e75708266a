// Enterprise single sign-on with JavaScript off (issue 43): an owner adds an OIDC connection on the organization's
// "Single sign-on" page, proves the domain with the TXT record it shows, and a person at that domain signs in with
// "Sign in with SSO" and joins the organization; an unknown domain and a plain member's visit are refused; a
// connection is removed after a question. The IdP (oauth2-mock-server) and the DNS stub are this spec's own.
import { readFileSync } from "node:fs";
import path from "node:path";
import { OAuth2Server } from "oauth2-mock-server";
import http from "node:http";
import { startDnsStub, type DnsStub } from "../support/dns-stub";
import { encode, readAuthnRequest, responseXml, sign } from "../support/saml-idp";
import { expect, expectErrorSummary, expectNoAxeViolations, expectSignedInAs, expectStatus, PASSWORD, signUp, test, uniqueEmail, waitForHydration } from "./fixtures";
import { E2E_PORT } from "./ports";

// Fixed, because the app servers' settings are chosen before they start: beside the suite's own ports (+1…+3).
const IDP_PORT = E2E_PORT + 7;
const DNS_PORT = E2E_PORT + 8;
const ISSUER = `http://localhost:${IDP_PORT}`;
const SAML_IDP_PORT = E2E_PORT + 9;
const SAML_ENTITY_ID = "https://idp.example.test/metadata";

test.use({
  javaScriptEnabled: false,
  appServerEnv: { SSO_TRUSTED_IDP_ORIGINS: ISSUER, SSO_DNS_SERVERS: `127.0.0.1:${DNS_PORT}` },
});
// One IdP and one DNS stub for the file: its tests run one after another in one worker.
test.describe.configure({ mode: "serial" });

let idp: OAuth2Server;
let dns: DnsStub;
let claims: Record<string, unknown> = {};
let samlIdp: http.Server;
/** Who the SAML IdP signs in next. */
let samlPerson = "";

/**
 * A SAML IdP's sign-in page on loopback: it reads our AuthnRequest and answers with a page whose "Continue" button
 * posts the signed response to our ACS (the HTTP-POST binding, without JavaScript).
 */
function samlIdpPage(request: http.IncomingMessage, response: http.ServerResponse) {
  if (!request.url?.startsWith("/sso?")) {
    response.writeHead(404).end(); // the browser's /favicon.ico
    return;
  }
  const { xml, id, relayState } = readAuthnRequest(`http://localhost${request.url}`);
  const acs = /AssertionConsumerServiceURL="([^"]+)"/.exec(xml)![1];
  const audience = />([^<]+)<\/saml:Issuer>/.exec(xml)![1];
  const signed = sign(responseXml({ idpEntityId: SAML_ENTITY_ID, acs, audience, inResponseTo: id, nameId: samlPerson, email: samlPerson, name: "Ada Lovelace" }));
  response.writeHead(200, { "Content-Type": "text/html; charset=utf-8" });
  response.end(
    `<!doctype html><html lang="en"><head><title>Test IdP</title></head><body><main><h1>Test IdP</h1><form method="post" action="${acs}">` +
      `<input type="hidden" name="SAMLResponse" value="${encode(signed)}"><input type="hidden" name="RelayState" value="${relayState}">` +
      `<button type="submit">Continue to the service</button></form></main></body></html>`,
  );
}

test.beforeAll(async () => {
  idp = new OAuth2Server();
  await idp.issuer.keys.generate("RS256");
  await idp.start(IDP_PORT, "localhost");
  idp.service.on("beforeTokenSigning", (token) => Object.assign(token.payload, claims));
  idp.service.on("beforeUserinfo", (response) => void (response.body = { ...claims }));
  dns = await startDnsStub(DNS_PORT);
  samlIdp = http.createServer(samlIdpPage);
  await new Promise<void>((resolve) => samlIdp.listen(SAML_IDP_PORT, "127.0.0.1", resolve));
});
test.afterAll(async () => {
  await idp?.stop();
  await dns?.stop();
  await new Promise((resolve) => samlIdp?.close(resolve));
});

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

test("an owner connects the organization's IdP, proves the domain, and its people sign in with SSO and join", async ({ page, browser }) => {
  test.slow();
  const id = unique();
  const slug = `acme-${id}`;
  const domain = `corp-${id}.example.com`;
  const owner = { name: "Olive Owner", email: uniqueEmail("sso-owner"), password: PASSWORD };
  await signUp(page, owner);
  await expect(page).toHaveURL("/account");
  await page.goto("/organizations");
  await page.getByLabel("Name", { exact: true }).fill("Acme Corp");
  await page.getByLabel("Slug").fill(slug);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}`);

  await page.getByRole("link", { name: "Single sign-on" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}/sso`);
  await expect(page.getByRole("heading", { level: 1, name: "Single sign-on" })).toBeVisible();
  await expect(page.getByText("No connections yet.")).toBeVisible();
  await expectNoAxeViolations(page, "no connections");

  // A mistake first: the form says what is wrong and keeps what was typed (not the secret).
  const oidcForm = () => page.locator("form", { has: page.getByRole("heading", { name: "Add an OpenID Connect connection" }) });
  await oidcForm().getByLabel("Provider ID").fill(`okta ${id}`);
  await oidcForm().getByLabel("Email domain").fill(domain);
  await oidcForm().getByLabel("Issuer URL").fill(ISSUER);
  await oidcForm().getByLabel("Client ID").fill("acme-client");
  await oidcForm().getByLabel("Client secret").fill("acme-secret");
  await oidcForm().getByRole("button", { name: "Add connection" }).click();
  await expectErrorSummary(page, ["Use letters, digits, - and _ only."]);
  await oidcForm().getByLabel("Provider ID").fill(`okta-${id}`);
  await oidcForm().getByLabel("Client secret").fill("acme-secret");
  await oidcForm().getByRole("button", { name: "Add connection" }).click();
  await expectStatus(page, `Added okta-${id}. Next, prove the domain with the TXT record below.`);
  const card = page.getByRole("article", { name: `okta-${id}` });
  await expect(card).toContainText("OpenID Connect");
  await expect(card).toContainText("Not verified");
  await expect(card.getByLabel("Redirect URI")).toHaveValue(/\/api\/auth\/sso\/callback\/okta-/);

  // "Verify domain" before the record exists says so; after it is published, the connection is verified.
  await card.getByRole("button", { name: "Verify domain" }).click();
  await expectErrorSummary(page, ["We could not find the TXT record on every domain yet."]);
  const name = await page.getByRole("article", { name: `okta-${id}` }).getByLabel("Name").inputValue();
  const value = await page.getByRole("article", { name: `okta-${id}` }).getByLabel("Value").inputValue();
  expect(name).toBe(`_better-auth-token-okta-${id}.${domain}`);
  dns.records.set(name, [value]);
  await page.getByRole("article", { name: `okta-${id}` }).getByRole("button", { name: "Verify domain" }).click();
  await expectStatus(page, `The domain of okta-${id} is verified: its people can now sign in with SSO.`);
  await expect(page.getByRole("article", { name: `okta-${id}` })).toContainText("Verified");

  // A person at the domain: "Sign in with SSO" from the sign-in page, straight to the IdP and back signed in.
  const email = `grace-${id}@${domain}`;
  claims = { sub: `sub-${email}`, email, email_verified: true, name: "Grace Hopper" };
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: new URL(page.url()).origin });
  const visitor = await context.newPage();
  await visitor.goto("/sign-in");
  await visitor.getByRole("link", { name: "Sign in with SSO" }).click();
  await expect(visitor).toHaveURL("/sign-in/sso");
  await expectNoAxeViolations(visitor, "sign in with SSO");
  await visitor.getByLabel("Work email").fill(email);
  await visitor.getByRole("button", { name: "Continue" }).click();
  await expect(visitor).toHaveURL(/\/account/);
  await expectSignedInAs(visitor, { name: "Grace Hopper", email });
  await visitor.goto(`/organizations/${slug}`);
  await expect(visitor.getByRole("heading", { level: 1, name: "Acme Corp" })).toBeVisible();
  // A plain member does not see the page, nor the link to it.
  await expect(visitor.getByRole("link", { name: "Single sign-on" })).toHaveCount(0);
  const hidden = await visitor.goto(`/organizations/${slug}/sso`);
  expect(hidden?.status()).toBe(404);
  await context.close();

  // With JavaScript on, the same: the page's form hands the browser to the IdP and back.
  const colleague = `alan-${id}@${domain}`;
  claims = { sub: `sub-${colleague}`, email: colleague, email_verified: true, name: "Alan Turing" };
  const scripted = await browser.newContext({ javaScriptEnabled: true, baseURL: new URL(page.url()).origin });
  const second = await scripted.newPage();
  await second.goto("/sign-in");
  await second.getByRole("link", { name: "Sign in with SSO" }).click();
  await expect(second).toHaveURL("/sign-in/sso");
  await waitForHydration(second);
  await second.getByLabel("Work email").fill(colleague);
  await second.getByRole("button", { name: "Continue" }).click();
  await expect(second).toHaveURL(/\/account/);
  await expectSignedInAs(second, { name: "Alan Turing", email: colleague });
  await scripted.close();

  // Removing asks first.
  await page.getByRole("article", { name: `okta-${id}` }).getByRole("link", { name: "Remove" }).click();
  await expect(page.getByRole("group", { name: `Remove okta-${id}? Its people can no longer sign in with it.` })).toBeFocused();
  await expectNoAxeViolations(page, "confirm removing a connection");
  await page.getByRole("button", { name: "Remove" }).click();
  await expectStatus(page, `Removed okta-${id}. Its people can no longer sign in with it.`);
  await expect(page.getByText("No connections yet.")).toBeVisible();
});

test("an address without a proven connection stays on the page with the error in words", async ({ page }) => {
  await page.goto("/sign-in/sso");
  await page.getByLabel("Work email").fill(`ann@nobody-${unique()}.example.com`);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(page).toHaveURL(/\/sign-in\/sso/);
  await expectErrorSummary(page, ["There is no single sign-on for that email address."]);

  // An error coming back from the IdP is shown there too.
  await page.goto("/sign-in/sso?error=access_denied");
  await expectErrorSummary(page, ["Your organization's identity provider did not let you in."]);
});

test("an owner adds a SAML connection, and a person signs in through the IdP's form post", async ({ page, browser }) => {
  test.slow();
  const id = unique();
  const slug = `saml-${id}`;
  await signUp(page, { name: "Sam Owner", email: uniqueEmail("saml-owner"), password: PASSWORD });
  await expect(page).toHaveURL("/account");
  await page.goto("/organizations");
  await page.getByLabel("Name", { exact: true }).fill("Saml Corp");
  await page.getByLabel("Slug").fill(slug);
  await page.getByRole("button", { name: "Create organization" }).click();
  await expect(page).toHaveURL(`/organizations/${slug}`);
  await page.goto(`/organizations/${slug}/sso`);
  const form = page.locator("form", { has: page.getByRole("heading", { name: "Add a SAML connection" }) });
  await form.getByLabel("Provider ID").fill(`adfs-${id}`);
  await form.getByLabel("Email domain").fill(`saml-${id}.example.com`);
  await form.getByLabel("IdP entity ID").fill(SAML_ENTITY_ID);
  await form.getByLabel("SSO URL").fill(`http://localhost:${SAML_IDP_PORT}/sso`);
  await form.getByLabel("Signing certificate").fill("not a certificate");
  await form.getByRole("button", { name: "Add SAML connection" }).click();
  await expectErrorSummary(page, ["samlConfig.cert is not an X.509 certificate in PEM"]);
  const cert = readFileSync(path.join(import.meta.dirname, "..", "fixtures", "saml", "idp.crt"), "utf8");
  const again = page.locator("form", { has: page.getByRole("heading", { name: "Add a SAML connection" }) });
  await again.getByLabel("Signing certificate").fill(cert);
  await again.getByRole("button", { name: "Add SAML connection" }).click();
  await expectStatus(page, `Added adfs-${id}. Next, prove the domain with the TXT record below.`);
  const card = page.getByRole("article", { name: `adfs-${id}` });
  await expect(card).toContainText("SAML 2.0");
  await expect(card).toContainText("Not verified");
  await expect(card.getByLabel("ACS URL")).toHaveValue(new RegExp(`/api/auth/sso/saml2/sp/acs/adfs-${id}$`));
  await expect(card.getByLabel("Metadata URL")).toHaveValue(new RegExp(`/api/auth/sso/saml2/sp/metadata\\?providerId=adfs-${id}$`));
  await expect(card.getByLabel("Entity ID")).toHaveValue(new RegExp(`providerId=adfs-${id}$`));
  await expectNoAxeViolations(page, "a SAML connection");

  // Proven, then a person of the domain goes to the IdP and comes back through the ACS, signed in.
  const name = await card.getByLabel("Name").inputValue();
  dns.records.set(name, [await card.getByLabel("Value").inputValue()]);
  await card.getByRole("button", { name: "Verify domain" }).click();
  await expectStatus(page, `The domain of adfs-${id} is verified: its people can now sign in with SSO.`);
  samlPerson = `ada-${id}@saml-${id}.example.com`;
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL: new URL(page.url()).origin });
  const visitor = await context.newPage();
  await visitor.goto("/sign-in/sso");
  await visitor.getByLabel("Work email").fill(samlPerson);
  await visitor.getByRole("button", { name: "Continue" }).click();
  await expect(visitor.getByRole("heading", { name: "Test IdP" })).toBeVisible();
  await visitor.getByRole("button", { name: "Continue to the service" }).click();
  await expect(visitor).toHaveURL(/\/account/);
  await expectSignedInAs(visitor, { name: "Ada Lovelace", email: samlPerson });
  await context.close();
});
