// A SAML identity provider for the tests (issue 43): Responses built as an IdP would, signed with xml-crypto by a
// test key (tests/fixtures/saml/idp.key; its certificate is what the connection registers), each part open to
// being broken on purpose. `other.key` is a key the connection does not know.
import { readFileSync } from "node:fs";
import path from "node:path";
import { inflateRawSync } from "node:zlib";
import { SignedXml } from "xml-crypto";

const fixtures = path.join(import.meta.dirname, "..", "fixtures", "saml");
export const IDP_KEY = readFileSync(path.join(fixtures, "idp.key"), "utf8");
export const IDP_CERT = readFileSync(path.join(fixtures, "idp.crt"), "utf8");
export const OTHER_KEY = readFileSync(path.join(fixtures, "other.key"), "utf8");
export const OTHER_CERT = readFileSync(path.join(fixtures, "other.crt"), "utf8");

const RSA_SHA256 = "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256";
const RSA_SHA1 = "http://www.w3.org/2000/09/xmldsig#rsa-sha1";
const SHA256 = "http://www.w3.org/2001/04/xmlenc#sha256";
const SHA1 = "http://www.w3.org/2000/09/xmldsig#sha1";
const EXC_C14N = "http://www.w3.org/2001/10/xml-exc-c14n#";
const ENVELOPED = "http://www.w3.org/2000/09/xmldsig#enveloped-signature";

export interface ResponseParts {
  idpEntityId: string;
  acs: string;
  audience: string;
  inResponseTo: string | null;
  nameId: string;
  email?: string;
  name?: string;
  assertionId?: string;
  destination?: string | null;
  responseIssuer?: string | null;
  assertionIssuer?: string;
  recipient?: string;
  status?: string;
  notBefore?: Date;
  notOnOrAfter?: Date;
  /** Raw XML put after the assertion (a second assertion, an encrypted one). */
  extra?: string;
  /** Raw XML before the root element (a DTD). */
  prolog?: string;
}

const iso = (date: Date) => date.toISOString();

export function responseXml(parts: ResponseParts): string {
  const now = new Date();
  const notBefore = parts.notBefore ?? new Date(now.getTime() - 60_000);
  const notOnOrAfter = parts.notOnOrAfter ?? new Date(now.getTime() + 5 * 60_000);
  const assertionId = parts.assertionId ?? `_a${Math.random().toString(36).slice(2)}`;
  const inResponseTo = parts.inResponseTo ? ` InResponseTo="${parts.inResponseTo}"` : "";
  const destination = parts.destination === null ? "" : ` Destination="${parts.destination ?? parts.acs}"`;
  const responseIssuer = parts.responseIssuer === null ? "" : `<saml:Issuer>${parts.responseIssuer ?? parts.idpEntityId}</saml:Issuer>`;
  const attributes = [
    parts.email ? `<saml:Attribute Name="email"><saml:AttributeValue>${parts.email}</saml:AttributeValue></saml:Attribute>` : "",
    parts.name ? `<saml:Attribute Name="displayName"><saml:AttributeValue>${parts.name}</saml:AttributeValue></saml:Attribute>` : "",
  ].join("");
  return `${parts.prolog ?? ""}<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${Math.random().toString(36).slice(2)}" Version="2.0" IssueInstant="${iso(now)}"${destination}${inResponseTo}>${responseIssuer}<samlp:Status><samlp:StatusCode Value="${parts.status ?? "urn:oasis:names:tc:SAML:2.0:status:Success"}"/></samlp:Status><saml:Assertion ID="${assertionId}" Version="2.0" IssueInstant="${iso(now)}"><saml:Issuer>${parts.assertionIssuer ?? parts.idpEntityId}</saml:Issuer><saml:Subject><saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${parts.nameId}</saml:NameID><saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer"><saml:SubjectConfirmationData${inResponseTo} Recipient="${parts.recipient ?? parts.acs}" NotOnOrAfter="${iso(notOnOrAfter)}"/></saml:SubjectConfirmation></saml:Subject><saml:Conditions NotBefore="${iso(notBefore)}" NotOnOrAfter="${iso(notOnOrAfter)}"><saml:AudienceRestriction><saml:Audience>${parts.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions><saml:AuthnStatement AuthnInstant="${iso(now)}" SessionIndex="_s1"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement><saml:AttributeStatement>${attributes}</saml:AttributeStatement></saml:Assertion>${parts.extra ?? ""}</samlp:Response>`;
}

export interface SignOptions {
  /** What the signature covers. */
  what?: "assertion" | "response";
  key?: string;
  /** Put this certificate in the signature's KeyInfo (it must count for nothing). */
  certInMessage?: string;
  sha1?: boolean;
}

export function sign(xml: string, options: SignOptions = {}): string {
  const what = options.what ?? "assertion";
  const signer = new SignedXml({
    privateKey: options.key ?? IDP_KEY,
    publicCert: options.certInMessage,
    signatureAlgorithm: options.sha1 ? RSA_SHA1 : RSA_SHA256,
    canonicalizationAlgorithm: EXC_C14N,
  });
  const target = what === "assertion" ? "//*[local-name(.)='Assertion']" : "/*[local-name(.)='Response']";
  signer.addReference({ xpath: target, transforms: [ENVELOPED, EXC_C14N], digestAlgorithm: options.sha1 ? SHA1 : SHA256 });
  signer.computeSignature(xml, { location: { reference: `${target}/*[local-name(.)='Issuer']`, action: "after" } });
  return signer.getSignedXml();
}

export const encode = (xml: string) => Buffer.from(xml, "utf8").toString("base64");

/** The AuthnRequest inside an HTTP-Redirect URL, and its RelayState. */
export function readAuthnRequest(url: string): { xml: string; id: string; relayState: string } {
  const params = new URL(url).searchParams;
  const xml = inflateRawSync(Buffer.from(params.get("SAMLRequest")!, "base64")).toString("utf8");
  return { xml, id: /\bID="([^"]+)"/.exec(xml)![1], relayState: params.get("RelayState") ?? "" };
}
