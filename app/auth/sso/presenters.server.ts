// A connection as the API answers it (Better Auth 1.7.5's `@better-auth/sso` shapes): the registration's answer
// and the sanitized shape of the lists. Neither ever carries the client secret.
import type { OidcEndpoints } from "~/auth/sso/discovery.server";
import { env } from "~/env.server";
import { publicSamlConfig, readSamlConfig } from "~/auth/sso/saml-config.server";
import type { SsoProvider } from "~/generated/prisma-sqlite/client";

/** What `ssoProvider.oidcConfig` holds (JSON text): the secret sealed with AUTH_SECRET. */
export interface StoredOidcConfig extends OidcEndpoints {
  clientId: string;
  clientSecret: string;
  scopes: string[];
  pkce: boolean;
  mapping?: Record<string, unknown>;
}

export function readOidcConfig(provider: Pick<SsoProvider, "oidcConfig">): StoredOidcConfig | null {
  if (!provider.oidcConfig) return null;
  try {
    return JSON.parse(provider.oidcConfig) as StoredOidcConfig;
  } catch {
    return null;
  }
}

export const redirectUri = (providerId: string) => `${env.BASE_URL}/api/auth/sso/callback/${providerId}`;
export const spMetadataUrl = (providerId: string) => `${env.BASE_URL}/api/auth/sso/saml2/sp/metadata?providerId=${encodeURIComponent(providerId)}`;

function publicOidcConfig(config: StoredOidcConfig) {
  const { clientSecret: _secret, ...rest } = config;
  return rest;
}

const lastFour = (clientId: string) => `****${clientId.slice(-4)}`;

/** POST /sso/register's answer: the stored provider, its domain token and redirect URI, and the discovered endpoints. */
export function presentRegistered(provider: SsoProvider, domainVerificationToken: string) {
  const oidcConfig = readOidcConfig(provider);
  return {
    id: provider.id,
    providerId: provider.providerId,
    issuer: provider.issuer,
    domain: provider.domain,
    organizationId: provider.organizationId,
    userId: provider.userId,
    domainVerified: provider.domainVerified,
    domainVerificationToken,
    redirectURI: redirectUri(provider.providerId),
    ...(oidcConfig ? { oidcConfig: publicOidcConfig(oidcConfig) } : {}),
    ...samlPart(provider),
  };
}

/** GET /sso/providers and /sso/get-provider: the sanitized shape. */
export function presentProvider(provider: SsoProvider) {
  const oidcConfig = readOidcConfig(provider);
  return {
    providerId: provider.providerId,
    type: provider.samlConfig ? ("saml" as const) : ("oidc" as const),
    issuer: provider.issuer,
    domain: provider.domain,
    organizationId: provider.organizationId,
    domainVerified: provider.domainVerified,
    ...(oidcConfig
      ? {
          oidcConfig: {
            discoveryEndpoint: oidcConfig.discoveryEndpoint,
            clientIdLastFour: lastFour(oidcConfig.clientId),
            pkce: oidcConfig.pkce,
            authorizationEndpoint: oidcConfig.authorizationEndpoint,
            tokenEndpoint: oidcConfig.tokenEndpoint,
            userInfoEndpoint: oidcConfig.userInfoEndpoint,
            jwksEndpoint: oidcConfig.jwksEndpoint,
            scopes: oidcConfig.scopes,
            tokenEndpointAuthentication: oidcConfig.tokenEndpointAuthentication,
          },
        }
      : {}),
    ...samlPart(provider),
    spMetadataUrl: spMetadataUrl(provider.providerId),
  };
}

function samlPart(provider: SsoProvider) {
  const samlConfig = readSamlConfig(provider);
  return samlConfig ? { samlConfig: publicSamlConfig(provider, samlConfig) } : {};
}
