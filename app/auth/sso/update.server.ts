// POST /sso/update-provider (docs/decisions/070-sso-connections.md): a partial change of a connection by its
// organization's owners and admins. A new domain must be proven again (a new token). Once anyone is linked through
// the connection, what identifies the IdP — the issuer, the client id, the endpoints — stays: changing it would
// hand those people's identities (`sub`s) to another IdP. Rotating the client secret is always allowed.
import { encrypt } from "~/auth/core/crypto.server";
import { AuthError } from "~/auth/errors";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { requireConnectionAdmin } from "~/auth/sso/access.server";
import { discoverEndpoints } from "~/auth/sso/discovery.server";
import { issueDomainToken } from "~/auth/sso/domains.server";
import { presentProvider, readOidcConfig, type StoredOidcConfig } from "~/auth/sso/presenters.server";
import type { UpdateInput } from "~/auth/sso/schemas";
import { db } from "~/db.server";

const IDENTITY_FIELDS = ["clientId", "discoveryEndpoint", "authorizationEndpoint", "tokenEndpoint", "jwksEndpoint", "userInfoEndpoint", "skipDiscovery"] as const;

const fail = (): never => {
  throw new AuthError("INVALID_SSO_CONFIGURATION");
};

export async function updateConnection(current: SessionWithUser, input: UpdateInput) {
  const provider = await requireConnectionAdmin(current, input.providerId);
  if (input.samlConfig) throw new AuthError("INVALID_SSO_CONFIGURATION", { message: "Changing a SAML connection is not supported yet: remove it and add it again" });
  const saml = Boolean(provider.samlConfig);
  // A SAML connection's domain may change here; the rest of it not yet (remove it and add it again).
  if (saml && (input.oidcConfig || (input.issuer !== undefined && input.issuer !== provider.issuer))) {
    throw new AuthError("INVALID_SSO_CONFIGURATION", { message: "Changing a SAML connection is not supported yet: remove it and add it again" });
  }
  const stored = readOidcConfig(provider) ?? (saml ? null : fail());
  const change = input.oidcConfig ?? {};
  const issuerChanges = input.issuer !== undefined && input.issuer !== provider.issuer;
  const identityChanges = issuerChanges || IDENTITY_FIELDS.some((field) => change[field] !== undefined && change[field] !== (stored as unknown as Record<string, unknown> | null)?.[field]);
  let next: StoredOidcConfig | null = stored && {
    ...stored,
    ...(change.clientId ? { clientId: change.clientId } : {}),
    ...(change.clientSecret ? { clientSecret: encrypt(change.clientSecret) } : {}),
    ...(change.scopes ? { scopes: change.scopes } : {}),
    ...(change.pkce !== undefined ? { pkce: change.pkce } : {}),
    ...(change.mapping ? { mapping: change.mapping } : {}),
    ...(change.tokenEndpointAuthentication ? { tokenEndpointAuthentication: change.tokenEndpointAuthentication } : {}),
  };
  const issuer = input.issuer ?? provider.issuer;
  const endpointsChange = issuerChanges || IDENTITY_FIELDS.some((field) => field !== "clientId" && change[field] !== undefined);
  if (endpointsChange && next && stored) {
    // Found and checked again, as at registration, before anything is written.
    const endpoints = await discoverEndpoints(issuer, { clientId: next.clientId, clientSecret: "-", discoveryEndpoint: stored.discoveryEndpoint, ...change });
    next = { ...next, ...endpoints };
  }
  const domain = input.domain ?? provider.domain;
  const domainChanges = domain !== provider.domain;
  const updated = await db.$transaction(async (tx) => {
    if (identityChanges && (await tx.account.count({ where: { providerId: provider.providerId } })) > 0) {
      throw new AuthError("CANNOT_CHANGE_SSO_PROVIDER_IDENTITY_FIELDS_WHILE_LINKED_ACCOUNTS_EXIST");
    }
    const row = await tx.ssoProvider.update({
      where: { id: provider.id },
      data: { issuer, domain, ...(next ? { oidcConfig: JSON.stringify(next) } : {}), ...(domainChanges ? { domainVerified: false } : {}) },
    });
    if (domainChanges) await issueDomainToken(tx, provider.providerId);
    return row;
  });
  return presentProvider(updated);
}
