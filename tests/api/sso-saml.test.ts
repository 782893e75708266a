// SAML 2.0 connections (issue 43): registration and the sanitized shape, our SP metadata, the AuthnRequest, and the
// assertion consumer service — a signed response signs in, and each check refuses its own broken response, with no
// session and nothing created. Responses are built and signed here with xml-crypto (tests/support/saml-idp.ts).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { COOKIE, setCookie } from "../support/cookies";
import { count, query } from "../support/sql";
import { createOrganization, person, proveDomain, startSsoWorld, uniqueSlug, uniqueDomain, type Person, type SsoWorld } from "../support/sso";
import { encode, IDP_CERT, OTHER_CERT, OTHER_KEY, readAuthnRequest, responseXml, sign, type ResponseParts } from "../support/saml-idp";

const IDP_ENTITY_ID = "https://idp.example.test/metadata";
const IDP_SSO_URL = "https://idp.example.test/sso";
let world: SsoWorld;
let owner: Person;
let organizationId: string;
let connection: { providerId: string; domain: string; domainVerificationToken: string; issuer: string };
let acs: string;

async function registerSaml(overrides: Record<string, unknown> = {}) {
  const providerId = uniqueSlug("saml");
  const body = {
    providerId,
    issuer: `${world.server.baseUrl}/sp/${providerId}`,
    domain: uniqueDomain("saml"),
    organizationId,
    samlConfig: { entryPoint: IDP_SSO_URL, cert: IDP_CERT, idpMetadata: { entityID: IDP_ENTITY_ID } },
    ...overrides,
  };
  const response = await owner.client.post("/api/auth/sso/register", body);
  expect(response.status, response.text).toBe(200);
  return { ...response.body, issuer: body.issuer } as typeof connection;
}

beforeAll(async () => {
  world = await startSsoWorld();
  owner = await person(world.server);
  organizationId = (await createOrganization(owner)).id;
  connection = await registerSaml();
  await proveDomain(world, owner, connection);
  acs = `${world.server.baseUrl}/api/auth/sso/saml2/sp/acs/${connection.providerId}`;
});
afterAll(async () => {
  await world?.stop();
});

const addressAt = (domain: string) => `ada-${Math.random().toString(36).slice(2, 8)}@${domain}`;

/** Starts a SAML sign-in in `browser`: the AuthnRequest's ID and the RelayState. */
async function start(browser: ApiClient, email: string, provider = connection) {
  const response = await browser.post("/api/auth/sign-in/sso", { email, callbackURL: "/account", errorCallbackURL: "/sign-in/sso" });
  expect(response.status, response.text).toBe(200);
  expect(response.body.url.startsWith(IDP_SSO_URL)).toBe(true);
  void provider;
  return readAuthnRequest(response.body.url);
}

/** The IdP's cross-site form post to the ACS. */
async function post(browser: ApiClient, relayState: string, samlResponse: string, target = acs) {
  const form = new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }).toString();
  return browser.request("POST", target, { rawBody: form, headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://idp.example.test" } });
}

function parts(request: { id: string }, email: string, overrides: Partial<ResponseParts> = {}): ResponseParts {
  return { idpEntityId: IDP_ENTITY_ID, acs, audience: connection.issuer, inResponseTo: request.id, nameId: email, email, name: "Ada Lovelace", ...overrides };
}

/** A full round trip with a response built from `overrides` and signed as `signing` says; the ACS's answer. */
async function roundTrip(overrides: Partial<ResponseParts> = {}, signing: Parameters<typeof sign>[1] | "unsigned" = {}, edit: (xml: string) => string = (x) => x) {
  const email = (overrides.nameId as string | undefined) ?? addressAt(connection.domain);
  const browser = new ApiClient(world.server.baseUrl);
  // Started with an address of the connection's domain (what the person typed); the IdP answers for `email`.
  const request = await start(browser, addressAt(connection.domain));
  const xml = responseXml(parts(request, email, overrides));
  const signed = edit(signing === "unsigned" ? xml : sign(xml, signing));
  const answer = await post(browser, request.relayState, encode(signed));
  return { browser, email, answer, location: answer.headers.get("location") ?? "", request, signed };
}

async function expectRefused(result: Awaited<ReturnType<typeof roundTrip>>, code: string) {
  expect(result.answer.status).toBe(303);
  expect(result.location).toBe(`${world.server.baseUrl}/sign-in/sso?error=${code}`);
  expect(setCookie(result.answer, COOKIE.sessionToken)?.value ?? "").toBe("");
  expect(await count(world.server.database, "user", `"email" = ?`, [result.email])).toBe(0);
}

describe("registering a SAML connection", () => {
  it("stores it and answers the sanitized shape: entry point, audience, certificates by fingerprint and validity", async () => {
    const one = await owner.client.get(`/api/auth/sso/get-provider?providerId=${connection.providerId}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ type: "saml", issuer: connection.issuer, samlConfig: { entryPoint: IDP_SSO_URL, audience: connection.issuer, wantAssertionsSigned: false } });
    expect(one.body.samlConfig.certificate).toHaveLength(1);
    expect(one.body.samlConfig.certificate[0]).toMatchObject({ fingerprintSha256: expect.stringMatching(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/) });
    expect(one.text).not.toContain("BEGIN CERTIFICATE");
  });

  it("refuses a certificate that is not one, and reads the IdP's entity ID and certificate from its metadata", async () => {
    const bad = await owner.client.post("/api/auth/sso/register", {
      providerId: uniqueSlug("bad"),
      issuer: `${world.server.baseUrl}/sp/bad`,
      domain: uniqueDomain(),
      organizationId,
      samlConfig: { entryPoint: IDP_SSO_URL, cert: "not a certificate", idpMetadata: { entityID: IDP_ENTITY_ID } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_SSO_CONFIGURATION");
    const body = IDP_CERT.replace(/-----[A-Z ]+-----|\s/g, "");
    const metadata = `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" xmlns:ds="http://www.w3.org/2000/09/xmldsig#" entityID="${IDP_ENTITY_ID}"><md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol"><md:KeyDescriptor use="signing"><ds:KeyInfo><ds:X509Data><ds:X509Certificate>${body}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor></md:IDPSSODescriptor></md:EntityDescriptor>`;
    const fromMetadata = await registerSaml({ samlConfig: { entryPoint: IDP_SSO_URL, cert: OTHER_CERT, idpMetadata: { metadata } } });
    const read = await owner.client.get(`/api/auth/sso/get-provider?providerId=${fromMetadata.providerId}`);
    expect(read.body.samlConfig.certificate).toHaveLength(2);
  });

  it("lets update-provider move a SAML connection's domain (unproven again), and refuses other changes to it for now", async () => {
    const saml = await registerSaml();
    const domain = uniqueDomain("moved");
    const moved = await owner.client.post("/api/auth/sso/update-provider", { providerId: saml.providerId, domain });
    expect(moved.status, moved.text).toBe(200);
    expect(moved.body).toMatchObject({ type: "saml", domain, domainVerified: false });
    const refused = await owner.client.post("/api/auth/sso/update-provider", { providerId: saml.providerId, samlConfig: { entryPoint: "https://elsewhere.example/sso" } });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe("INVALID_SSO_CONFIGURATION");
  });
});

describe("our service provider", () => {
  it("serves SP metadata (application/xml) naming the entity ID and the HTTP-POST ACS; 404 for an unknown connection", async () => {
    const response = await fetch(`${world.server.baseUrl}/api/auth/sso/saml2/sp/metadata?providerId=${connection.providerId}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/xml");
    const xml = await response.text();
    expect(xml).toContain(`entityID="${connection.issuer}"`);
    expect(xml).toContain(`Location="${acs}"`);
    expect(xml).toContain("urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST");
    expect(xml).toContain('WantAssertionsSigned="false"');
    expect((await fetch(`${world.server.baseUrl}/api/auth/sso/saml2/sp/metadata?providerId=unknown`)).status).toBe(404);
  });

  it("sends an AuthnRequest by HTTP-Redirect: ID, Destination, the ACS URL, HTTP-POST binding, our entity ID, and a RelayState", async () => {
    const request = await start(new ApiClient(world.server.baseUrl), addressAt(connection.domain));
    expect(request.id).toMatch(/^_/);
    expect(request.xml).toContain(`Destination="${IDP_SSO_URL}"`);
    expect(request.xml).toContain(`AssertionConsumerServiceURL="${acs}"`);
    expect(request.xml).toContain('ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"');
    expect(request.xml).toContain(`>${connection.issuer}</saml:Issuer>`);
    expect(request.relayState).toMatch(/^[A-Za-z0-9]{32}$/);
  });
});

describe("the ACS", () => {
  it("signs in a new, verified member from a signed assertion, and the same NameID again later", async () => {
    const first = await roundTrip();
    expect(first.answer.status).toBe(303);
    expect(first.location).toBe(`${world.server.baseUrl}/account`);
    const session = await first.browser.get("/api/auth/get-session");
    expect(session.body.user).toMatchObject({ email: first.email, name: "Ada Lovelace", emailVerified: true });
    const role = await query<{ role: string }>(world.server.database, `SELECT "role" FROM "member" WHERE "organizationId" = ? AND "userId" = ?`, [organizationId, session.body.user.id]);
    expect(role[0]?.role).toBe("member");
    const again = await roundTrip({ nameId: first.email, email: first.email });
    expect(again.location).toBe(`${world.server.baseUrl}/account`);
    expect((await again.browser.get("/api/auth/get-session")).body.user.id).toBe(session.body.user.id);
  });

  it("accepts a signed Response enveloping an unsigned assertion", async () => {
    const result = await roundTrip({}, { what: "response" });
    expect(result.location).toBe(`${world.server.baseUrl}/account`);
  });

  it("refuses an unsigned response", async () => expectRefused(await roundTrip({}, "unsigned"), "saml_invalid_signature"));
  it("refuses a signature by a key it does not know, even with that key's certificate in the message", async () =>
    expectRefused(await roundTrip({}, { key: OTHER_KEY, certInMessage: OTHER_CERT }), "saml_invalid_signature"));
  it("refuses an assertion changed after signing", async () =>
    expectRefused(await roundTrip({}, {}, (xml) => xml.replace(/(<saml:AttributeValue>)ada-/, "$1eve-")), "saml_invalid_signature"));
  it("refuses SHA-1 signatures", async () => expectRefused(await roundTrip({}, { sha1: true }), "saml_weak_signature_algorithm"));
  it("refuses a second assertion", async () =>
    expectRefused(await roundTrip({ extra: '<saml:Assertion ID="_x" Version="2.0" IssueInstant="2026-01-01T00:00:00Z"><saml:Issuer>x</saml:Issuer></saml:Assertion>' }), "saml_assertion_count"));
  it("refuses an encrypted assertion (not supported yet)", async () =>
    expectRefused(await roundTrip({ extra: "<saml:EncryptedAssertion/>" }), "saml_encrypted_assertion"));
  it("refuses a DTD", async () => expectRefused(await roundTrip({ prolog: '<!DOCTYPE r [<!ENTITY e "x">]>' }), "saml_dtd_refused"));
  it("refuses a response over 256 KB", async () =>
    expectRefused(await roundTrip({ extra: `<!--${"x".repeat(270 * 1024)}-->` }), "saml_response_too_large"));
  it("refuses another Response Issuer", async () => expectRefused(await roundTrip({ responseIssuer: "https://evil.example/idp" }), "saml_issuer_mismatch"));
  it("refuses another Assertion Issuer", async () => expectRefused(await roundTrip({ assertionIssuer: "https://evil.example/idp" }), "saml_issuer_mismatch"));
  it("refuses a status other than Success", async () =>
    expectRefused(await roundTrip({ status: "urn:oasis:names:tc:SAML:2.0:status:Responder" }), "saml_status_not_success"));
  it("refuses another Destination", async () => expectRefused(await roundTrip({ destination: "https://evil.example/acs" }), "saml_destination_mismatch"));
  it("refuses another bearer Recipient", async () => expectRefused(await roundTrip({ recipient: "https://evil.example/acs" }), "saml_recipient_mismatch"));
  it("refuses another audience", async () => expectRefused(await roundTrip({ audience: "https://someone-else.example/sp" }), "saml_audience_mismatch"));
  it("refuses an assertion past its NotOnOrAfter (beyond the clock skew)", async () =>
    expectRefused(await roundTrip({ notBefore: new Date(Date.now() - 3_600_000), notOnOrAfter: new Date(Date.now() - 600_000) }), "saml_expired"));
  it("accepts an assertion that ended within SSO_SAML_CLOCK_SKEW (300 s) ago", async () => {
    const result = await roundTrip({ notBefore: new Date(Date.now() - 600_000), notOnOrAfter: new Date(Date.now() - 120_000) });
    expect(result.location).toBe(`${world.server.baseUrl}/account`);
  });
  it("refuses an assertion before its NotBefore (beyond the clock skew)", async () =>
    expectRefused(await roundTrip({ notBefore: new Date(Date.now() + 600_000), notOnOrAfter: new Date(Date.now() + 1_200_000) }), "saml_expired"));
  it("refuses an unsolicited (IdP-initiated) response", async () => expectRefused(await roundTrip({ inResponseTo: null }), "saml_unsolicited_response"));
  it("refuses a response to a request it never sent", async () => expectRefused(await roundTrip({ inResponseTo: "_never-sent" }), "saml_unknown_request"));
  it("refuses an address outside the connection's proven domains", async () =>
    expectRefused(await roundTrip({ nameId: `ada-${Date.now()}@elsewhere.example`, email: `ada-${Date.now()}@elsewhere.example` }), "email_domain_mismatch"));

  it("uses the AuthnRequest once: the same response posted again is refused", async () => {
    const first = await roundTrip();
    expect(first.location).toBe(`${world.server.baseUrl}/account`);
    // A RelayState of a new sign-in, with the old response.
    const browser = new ApiClient(world.server.baseUrl);
    const next = await start(browser, first.email);
    const replay = await post(browser, next.relayState, encode(first.signed));
    expect(replay.headers.get("location")).toBe(`${world.server.baseUrl}/sign-in/sso?error=saml_unknown_request`);
  });

  it("never accepts one assertion ID twice, even answering a new request", async () => {
    const assertionId = `_a-fixed-${Date.now()}`;
    const first = await roundTrip({ assertionId });
    expect(first.location).toBe(`${world.server.baseUrl}/account`);
    const second = await roundTrip({ assertionId, nameId: first.email, email: first.email });
    expect(second.location).toBe(`${world.server.baseUrl}/sign-in/sso?error=saml_assertion_replayed`);
    expect(setCookie(second.answer, COOKIE.sessionToken)?.value ?? "").toBe("");
  });

  it("refuses a RelayState it did not issue, and one used already", async () => {
    const email = addressAt(connection.domain);
    const browser = new ApiClient(world.server.baseUrl);
    const request = await start(browser, email);
    const signed = encode(sign(responseXml(parts(request, email))));
    const forged = await post(browser, "not-one-of-ours", signed);
    expect(forged.headers.get("location")).toBe(`${world.server.baseUrl}/api/auth/error?error=invalid_state`);
    expect((await post(browser, request.relayState, signed)).headers.get("location")).toBe(`${world.server.baseUrl}/account`);
    expect((await post(browser, request.relayState, signed)).headers.get("location")).toBe(`${world.server.baseUrl}/api/auth/error?error=invalid_state`);
  });

  it("with wantAssertionsSigned, refuses a response whose signature covers only the Response", async () => {
    const strict = await registerSaml({ samlConfig: { entryPoint: IDP_SSO_URL, cert: IDP_CERT, idpMetadata: { entityID: IDP_ENTITY_ID }, wantAssertionsSigned: true } });
    await proveDomain(world, owner, strict);
    const strictAcs = `${world.server.baseUrl}/api/auth/sso/saml2/sp/acs/${strict.providerId}`;
    const email = addressAt(strict.domain);
    const browser = new ApiClient(world.server.baseUrl);
    const request = await start(browser, email);
    const xml = responseXml({ ...parts(request, email), acs: strictAcs, audience: strict.issuer });
    const answer = await post(browser, request.relayState, encode(sign(xml, { what: "response" })), strictAcs);
    expect(answer.headers.get("location")).toBe(`${world.server.baseUrl}/sign-in/sso?error=saml_invalid_signature`);
  });
});
