// A SAML connection's stored configuration (docs/decisions/071-saml.md): the IdP's SSO URL, its signing
// certificates (PEM; several while one rotates), its entity ID (given, or read from its metadata XML), and what
// the assertions must carry. Certificates are checked when registered; the sanitized shape shows their SHA-256
// fingerprints and validity, never anything else of them.
import { X509Certificate } from "node:crypto";
import { DOMParser } from "@xmldom/xmldom";
import { AuthError } from "~/auth/errors";
import type { SamlConfigInput } from "~/auth/sso/schemas";
import { env } from "~/env.server";
import type { SsoProvider } from "~/generated/prisma-sqlite/client";

export interface StoredSamlConfig {
  entryPoint: string;
  /** PEM certificates whose keys may sign responses. */
  cert: string[];
  idpEntityId: string;
  wantAssertionsSigned: boolean;
  mapping?: { id?: string; email?: string; name?: string; firstName?: string; lastName?: string };
  audience?: string;
  identifierFormat?: string;
}

export const acsUrl = (providerId: string) => `${env.BASE_URL}/api/auth/sso/saml2/sp/acs/${providerId}`;

function invalid(message: string): AuthError {
  return new AuthError("INVALID_SSO_CONFIGURATION", { message });
}

/** A PEM (or its bare base64 body) → the certificate in PEM, or a 400 naming the problem. */
function certificate(value: string): string {
  const body = value.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "");
  try {
    const parsed = new X509Certificate(`-----BEGIN CERTIFICATE-----\n${body.match(/.{1,64}/g)?.join("\n")}\n-----END CERTIFICATE-----\n`);
    return parsed.toString();
  } catch {
    throw invalid("samlConfig.cert is not an X.509 certificate in PEM");
  }
}

/** The IdP's entity ID and signing certificates named in its metadata XML (no DTDs, as for responses). */
function fromMetadata(xml: string): { entityId: string | null; certs: string[] } {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml)) throw invalid("The IdP metadata may not contain a DTD");
  let failed = false;
  const doc = new DOMParser({ errorHandler: { warning: () => {}, error: () => void (failed = true), fatalError: () => void (failed = true) } }).parseFromString(xml, "text/xml");
  const root = doc.documentElement;
  if (failed || !root || root.localName !== "EntityDescriptor") throw invalid("The IdP metadata is not an EntityDescriptor");
  const certs = Array.from(root.getElementsByTagNameNS("http://www.w3.org/2000/09/xmldsig#", "X509Certificate"))
    .map((node) => node.textContent ?? "")
    .filter(Boolean);
  return { entityId: root.getAttribute("entityID"), certs };
}

export function samlConfigFrom(input: SamlConfigInput): StoredSamlConfig {
  const metadata = input.idpMetadata.metadata ? fromMetadata(input.idpMetadata.metadata) : { entityId: null, certs: [] };
  const idpEntityId = input.idpMetadata.entityID ?? metadata.entityId;
  if (!idpEntityId) throw invalid("idpMetadata needs the IdP's entityID");
  const given = Array.isArray(input.cert) ? input.cert : [input.cert];
  return {
    entryPoint: input.entryPoint,
    cert: [...new Set([...given, ...metadata.certs].map(certificate))],
    idpEntityId,
    wantAssertionsSigned: input.wantAssertionsSigned ?? false,
    ...(input.mapping ? { mapping: input.mapping } : {}),
    ...(input.audience ? { audience: input.audience } : {}),
    ...(input.identifierFormat ? { identifierFormat: input.identifierFormat } : {}),
  };
}

export function readSamlConfig(provider: Pick<SsoProvider, "samlConfig">): StoredSamlConfig | null {
  if (!provider.samlConfig) return null;
  try {
    return JSON.parse(provider.samlConfig) as StoredSamlConfig;
  } catch {
    return null;
  }
}

/** Better Auth's sanitized `samlConfig`. */
export function publicSamlConfig(provider: Pick<SsoProvider, "issuer">, config: StoredSamlConfig) {
  return {
    entryPoint: config.entryPoint,
    audience: config.audience ?? provider.issuer,
    wantAssertionsSigned: config.wantAssertionsSigned,
    identifierFormat: config.identifierFormat,
    idpEntityId: config.idpEntityId,
    certificate: config.cert.map((pem) => {
      const parsed = new X509Certificate(pem);
      return { fingerprintSha256: parsed.fingerprint256, notBefore: new Date(parsed.validFrom).toISOString(), notAfter: new Date(parsed.validTo).toISOString() };
    }),
  };
}
