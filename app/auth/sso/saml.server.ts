// SAML 2.0 connections (docs/decisions/071-saml.md): our service provider's metadata, the AuthnRequest (HTTP-Redirect
// binding) and the assertion consumer service. Signatures, audience, time limits and status are checked by
// @node-saml/node-saml with the registered certificates only; this module adds what it leaves out — the shape of
// the message (size, no DTD, exactly one assertion, no encrypted ones yet), SHA-1 refused, both Issuers, the
// Destination and the bearer Recipient, InResponseTo consumed once, the assertion ID never seen before, and a
// RelayState we issued. Every failure is a code the route turns into `?error=`.
import { DOMParser } from "@xmldom/xmldom";
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from "@node-saml/node-saml";
import { randomToken, sha256Hex } from "~/auth/core/crypto.server";
import { acsUrl, readSamlConfig, type StoredSamlConfig } from "~/auth/sso/saml-config.server";
import { SsoCallbackError, type SsoProfile } from "~/auth/sso/oidc-client.server";
import { db, isUniqueViolation } from "~/db.server";
import { env } from "~/env.server";
import type { SsoProvider } from "~/generated/prisma-sqlite/client";

export const MAX_SAML_RESPONSE_BYTES = 256 * 1024;
const REQUEST_TTL_MS = 5 * 60 * 1000;
const RELAY_TTL_MS = 10 * 60 * 1000;
const SAMLP = "urn:oasis:names:tc:SAML:2.0:protocol";
const ASSERTION_NS = "urn:oasis:names:tc:SAML:2.0:assertion";
const DSIG = "http://www.w3.org/2000/09/xmldsig#";
const BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer";

const requestKey = (providerId: string, id: string) => `sso-saml-request:${providerId}:${sha256Hex(id)}`;
const relayKey = (relayState: string) => `sso-saml-relay:${sha256Hex(relayState)}`;

/** The AuthnRequest IDs we sent, per connection, in the one verification table (5 minutes). */
function requestStore(providerId: string): CacheProvider {
  return {
    saveAsync: async (key, value) => {
      await db.verification.create({ data: { identifier: requestKey(providerId, key), value: JSON.stringify({ value }), expiresAt: new Date(Date.now() + REQUEST_TTL_MS) } });
      return { value, createdAt: Date.now() };
    },
    getAsync: async (key) => {
      const row = await db.verification.findUnique({ where: { identifier: requestKey(providerId, key) } });
      return row && row.expiresAt.getTime() > Date.now() ? (JSON.parse(row.value) as { value: string }).value : null;
    },
    // Consumed by `consumeAuthnRequest` after every check passed, in one statement (of two uses, one wins).
    removeAsync: async () => null,
  };
}

function samlFor(provider: SsoProvider, config: StoredSamlConfig): SAML {
  return new SAML({
    callbackUrl: acsUrl(provider.providerId),
    entryPoint: config.entryPoint,
    issuer: provider.issuer,
    idpCert: config.cert,
    idpIssuer: config.idpEntityId,
    audience: config.audience ?? provider.issuer,
    wantAssertionsSigned: config.wantAssertionsSigned,
    // Either the Response enveloping the one assertion or the assertion itself may carry the signature.
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: env.SSO_SAML_CLOCK_SKEW * 1000,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: REQUEST_TTL_MS,
    cacheProvider: requestStore(provider.providerId),
    identifierFormat: config.identifierFormat ?? null,
    disableRequestedAuthnContext: true,
    signatureAlgorithm: "sha256",
  });
}

export function requireSamlConfig(provider: SsoProvider): StoredSamlConfig {
  const config = readSamlConfig(provider);
  if (!config) throw new SsoCallbackError("invalid_provider");
  return config;
}

/** GET /sso/saml2/sp/metadata: our SP's metadata for the IdP's admin. */
export function spMetadata(provider: SsoProvider): string {
  const config = requireSamlConfig(provider);
  const xml = samlFor(provider, config).generateServiceProviderMetadata(null, null);
  // node-saml's metadata does not say so; the IdP's admin should know we require signed assertions when we do.
  return xml.replace("<SPSSODescriptor ", `<SPSSODescriptor WantAssertionsSigned="${config.wantAssertionsSigned}" `);
}

export interface RelayTargets {
  providerId: string;
  callbackURL: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
}

/** The IdP's SSO URL with a deflated AuthnRequest and a RelayState naming server-side state (10 minutes). */
export async function samlAuthorizationUrl(provider: SsoProvider, targets: RelayTargets): Promise<string> {
  const relayState = randomToken(32);
  await db.verification.create({ data: { identifier: relayKey(relayState), value: JSON.stringify(targets), expiresAt: new Date(Date.now() + RELAY_TTL_MS) } });
  return samlFor(provider, requireSamlConfig(provider)).getAuthorizeUrlAsync(relayState, undefined, {});
}

/** The RelayState's targets, used up (a RelayState we did not issue, or one used or expired, is null). */
export async function takeRelayState(relayState: string): Promise<RelayTargets | null> {
  if (!relayState || relayState.length > 200) return null;
  const row = await db.verification.findUnique({ where: { identifier: relayKey(relayState) } });
  if (!row) return null;
  const { count } = await db.verification.deleteMany({ where: { identifier: row.identifier, value: row.value } });
  if (count !== 1 || row.expiresAt.getTime() <= Date.now()) return null;
  return JSON.parse(row.value) as RelayTargets;
}

const fail = (code: string): never => {
  throw new SsoCallbackError(code);
};

const children = (parent: Element, ns: string, name: string) => Array.from(parent.childNodes).filter((n): n is Element => n.nodeType === 1 && (n as Element).namespaceURI === ns && (n as Element).localName === name);
const text = (element: Element | undefined) => element?.textContent?.trim() ?? "";

/** The checks on the message itself, before and beside node-saml's. Returns the assertion's ID and the request it answers. */
function checkShape(xml: string, provider: SsoProvider, config: StoredSamlConfig): { assertionId: string; inResponseTo: string; notOnOrAfter: number } {
  if (Buffer.byteLength(xml) > MAX_SAML_RESPONSE_BYTES) fail("saml_response_too_large");
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) fail("saml_dtd_refused");
  let malformed = false;
  const doc = new DOMParser({ errorHandler: { warning: () => {}, error: () => void (malformed = true), fatalError: () => void (malformed = true) } }).parseFromString(xml, "text/xml");
  const response = doc.documentElement;
  if (malformed || !response || response.namespaceURI !== SAMLP || response.localName !== "Response") fail("saml_malformed");
  if (doc.getElementsByTagNameNS(ASSERTION_NS, "EncryptedAssertion").length) fail("saml_encrypted_assertion");
  const all = doc.getElementsByTagNameNS(ASSERTION_NS, "Assertion");
  const assertions = children(response, ASSERTION_NS, "Assertion");
  if (all.length !== 1 || assertions.length !== 1) fail("saml_assertion_count");
  const assertion = assertions[0];
  // SHA-1 is refused for signatures and digests alike, wherever they are in the message.
  for (const tag of ["SignatureMethod", "DigestMethod"]) {
    for (const node of Array.from(doc.getElementsByTagNameNS(DSIG, tag))) {
      if (/sha1$/i.test(node.getAttribute("Algorithm") ?? "")) fail("saml_weak_signature_algorithm");
    }
  }
  const status = children(response, SAMLP, "Status")[0];
  const code = status ? children(status, SAMLP, "StatusCode")[0]?.getAttribute("Value") : null;
  if (code !== "urn:oasis:names:tc:SAML:2.0:status:Success") fail("saml_status_not_success");
  const responseIssuer = children(response, ASSERTION_NS, "Issuer")[0];
  if (responseIssuer && text(responseIssuer) !== config.idpEntityId) fail("saml_issuer_mismatch");
  if (text(children(assertion, ASSERTION_NS, "Issuer")[0]) !== config.idpEntityId) fail("saml_issuer_mismatch");
  const acs = acsUrl(provider.providerId);
  const destination = response.getAttribute("Destination");
  if (destination && destination !== acs) fail("saml_destination_mismatch");
  const inResponseTo = response.getAttribute("InResponseTo") ?? "";
  if (!inResponseTo) fail("saml_unsolicited_response");
  const subject = children(assertion, ASSERTION_NS, "Subject")[0];
  const bearer = subject ? children(subject, ASSERTION_NS, "SubjectConfirmation").filter((c) => c.getAttribute("Method") === BEARER) : [];
  const data = bearer.map((c) => children(c, ASSERTION_NS, "SubjectConfirmationData")[0]).filter(Boolean);
  if (!data.length || data.some((d) => d.getAttribute("Recipient") !== acs)) fail("saml_recipient_mismatch");
  if (data.some((d) => d.getAttribute("InResponseTo") && d.getAttribute("InResponseTo") !== inResponseTo)) fail("saml_in_response_to_mismatch");
  const assertionId = assertion.getAttribute("ID") ?? "";
  if (!assertionId) fail("saml_malformed");
  const limits = [...data.map((d) => d.getAttribute("NotOnOrAfter")), ...children(assertion, ASSERTION_NS, "Conditions").map((c) => c.getAttribute("NotOnOrAfter"))]
    .filter((value): value is string => Boolean(value))
    .map((value) => Date.parse(value))
    .filter((value) => !Number.isNaN(value));
  return { assertionId, inResponseTo, notOnOrAfter: limits.length ? Math.max(...limits) : Date.now() + REQUEST_TTL_MS };
}

/** node-saml's refusals as codes (its messages are for developers). */
function codeOf(error: unknown): string {
  const message = (error as Error)?.message ?? "";
  if (/signature/i.test(message)) return "saml_invalid_signature";
  if (/audience/i.test(message)) return "saml_audience_mismatch";
  if (/InResponseTo/i.test(message)) return "saml_unknown_request";
  // An expired bearer confirmation reads "No valid subject confirmation found".
  if (/NotBefore|NotOnOrAfter|expired|not yet valid|valid subject confirmation/i.test(message)) return "saml_expired";
  if (/status/i.test(message)) return "saml_status_not_success";
  if (/issuer/i.test(message)) return "saml_issuer_mismatch";
  return "saml_invalid_response";
}

/**
 * The ACS's verdict on a posted SAMLResponse for `provider`: the person, or an SsoCallbackError. Accepted only if
 * every check holds; the AuthnRequest it answers and the assertion's ID are used up in the same step.
 */
export async function acceptSamlResponse(provider: SsoProvider, samlResponse: string): Promise<SsoProfile> {
  const config = requireSamlConfig(provider);
  if (samlResponse.length > Math.ceil((MAX_SAML_RESPONSE_BYTES * 4) / 3) + 4) fail("saml_response_too_large");
  const xml = Buffer.from(samlResponse, "base64").toString("utf8");
  const shape = checkShape(xml, provider, config);
  let profile: Profile | null;
  try {
    ({ profile } = await samlFor(provider, config).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw new SsoCallbackError(codeOf(error));
  }
  if (!profile?.nameID) fail("saml_invalid_response");
  // The AuthnRequest is consumed now: of two posts of one response, one gets here first.
  const { count } = await db.verification.deleteMany({ where: { identifier: requestKey(provider.providerId, shape.inResponseTo), expiresAt: { gt: new Date() } } });
  if (count !== 1) fail("saml_unknown_request");
  await rememberAssertion(provider.providerId, shape.assertionId, shape.notOnOrAfter);
  return profileOf(profile!, config);
}

/** An assertion ID is accepted once, and remembered until its NotOnOrAfter plus the clock skew. */
async function rememberAssertion(providerId: string, assertionId: string, notOnOrAfter: number): Promise<void> {
  try {
    await db.verification.create({
      data: { identifier: `sso-saml-assertion:${providerId}:${sha256Hex(assertionId)}`, value: "{}", expiresAt: new Date(notOnOrAfter + env.SSO_SAML_CLOCK_SKEW * 1000) },
    });
  } catch (error) {
    if (isUniqueViolation(error)) fail("saml_assertion_replayed");
    throw error;
  }
}

function profileOf(profile: Profile, config: StoredSamlConfig): SsoProfile {
  const attribute = (name: string | undefined) => {
    const value = name ? (profile as Record<string, unknown>)[name] : undefined;
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === "string" && first.trim() ? first.trim() : null;
  };
  const mapping = config.mapping ?? {};
  const email = attribute(mapping.email ?? "email") ?? (profile.nameID.includes("@") ? profile.nameID : null);
  const name =
    attribute(mapping.name ?? "displayName") ?? [attribute(mapping.firstName ?? "givenName"), attribute(mapping.lastName ?? "surname")].filter(Boolean).join(" ");
  return { sub: profile.nameID, email, name, image: null };
}
