// An OIDC connection's endpoints, found when it is registered (docs/decisions/070-sso-connections.md): the IdP's
// discovery document at `{issuer}/.well-known/openid-configuration` (or the given `discoveryEndpoint`), whose issuer
// must be the one registered and which must name the authorization, token and JWKS endpoints. With `skipDiscovery`
// the caller names them. Every failure is a 400 with Better Auth's discovery codes.
import { AuthError } from "~/auth/errors";
import type { OidcConfigInput } from "~/auth/sso/schemas";
import { assertFetchableEndpoint, idpJson, idpUrl } from "~/auth/sso/outbound.server";

export interface OidcEndpoints {
  discoveryEndpoint?: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  jwksEndpoint: string;
  userInfoEndpoint?: string;
  tokenEndpointAuthentication: "client_secret_basic" | "client_secret_post";
}

const trimSlash = (value: string) => value.replace(/\/+$/, "");

function endpoint(document: Record<string, unknown>, field: string): string | undefined {
  const value = document[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "string") throw new AuthError("discovery_invalid_json", { message: `OIDC discovery returned invalid data: ${field} is not a string` });
  return idpUrl(value).href;
}

/** The endpoints, found and checked: every one this service will fetch is refused now if it points inside. */
export async function discoverEndpoints(issuer: string, config: OidcConfigInput): Promise<OidcEndpoints> {
  const endpoints = await findEndpoints(issuer, config);
  for (const url of [endpoints.tokenEndpoint, endpoints.jwksEndpoint, endpoints.userInfoEndpoint]) if (url) await assertFetchableEndpoint(url);
  return endpoints;
}

async function findEndpoints(issuer: string, config: OidcConfigInput): Promise<OidcEndpoints> {
  if (config.skipDiscovery) {
    const { authorizationEndpoint, tokenEndpoint, jwksEndpoint } = config;
    const missing = Object.entries({ authorizationEndpoint, tokenEndpoint, jwksEndpoint }).filter(([, value]) => !value).map(([name]) => name);
    if (missing.length) throw new AuthError("discovery_incomplete", { message: `OIDC discovery document is missing required fields: ${missing.join(", ")}` });
    return {
      authorizationEndpoint: idpUrl(authorizationEndpoint!).href,
      tokenEndpoint: idpUrl(tokenEndpoint!).href,
      jwksEndpoint: idpUrl(jwksEndpoint!).href,
      ...(config.userInfoEndpoint ? { userInfoEndpoint: idpUrl(config.userInfoEndpoint).href } : {}),
      tokenEndpointAuthentication: config.tokenEndpointAuthentication ?? "client_secret_basic",
    };
  }
  const discoveryEndpoint = config.discoveryEndpoint ?? `${trimSlash(issuer)}/.well-known/openid-configuration`;
  let document: Record<string, unknown>;
  try {
    document = await idpJson(discoveryEndpoint, {}, "discovery_unexpected_error");
  } catch (error) {
    if (error instanceof AuthError && error.code === "discovery_unexpected_error" && error.reason === "404") {
      throw new AuthError("discovery_not_found", { message: `OIDC discovery endpoint not found at ${discoveryEndpoint}` });
    }
    throw error;
  }
  if (typeof document.issuer !== "string" || trimSlash(document.issuer) !== trimSlash(issuer)) {
    throw new AuthError("issuer_mismatch", { message: `OIDC issuer mismatch: the discovery document names ${String(document.issuer).slice(0, 200)}, not ${issuer}` });
  }
  const found = {
    authorizationEndpoint: config.authorizationEndpoint ?? endpoint(document, "authorization_endpoint"),
    tokenEndpoint: config.tokenEndpoint ?? endpoint(document, "token_endpoint"),
    jwksEndpoint: config.jwksEndpoint ?? endpoint(document, "jwks_uri"),
  };
  const missing = Object.entries(found).filter(([, value]) => !value).map(([name]) => name);
  if (missing.length) throw new AuthError("discovery_incomplete", { message: `OIDC discovery document is missing required fields: ${missing.join(", ")}` });
  const userInfoEndpoint = config.userInfoEndpoint ?? endpoint(document, "userinfo_endpoint");
  return {
    discoveryEndpoint,
    authorizationEndpoint: found.authorizationEndpoint!,
    tokenEndpoint: found.tokenEndpoint!,
    jwksEndpoint: found.jwksEndpoint!,
    ...(userInfoEndpoint ? { userInfoEndpoint } : {}),
    tokenEndpointAuthentication: config.tokenEndpointAuthentication ?? chooseAuthentication(document.token_endpoint_auth_methods_supported),
  };
}

/** Methods that need what a connection does not have (a private key, a client certificate). */
const UNUSABLE_METHODS = new Set(["private_key_jwt", "client_secret_jwt", "tls_client_auth", "self_signed_tls_client_auth"]);

/**
 * What the IdP supports: basic first (the specification's default when the document is silent), else post. A list
 * naming only "none" (public clients) is read as silent; refused only when every method listed needs a key or a
 * certificate.
 */
function chooseAuthentication(supported: unknown): OidcEndpoints["tokenEndpointAuthentication"] {
  if (!Array.isArray(supported)) return "client_secret_basic";
  if (supported.includes("client_secret_basic")) return "client_secret_basic";
  if (supported.includes("client_secret_post")) return "client_secret_post";
  if (!supported.length || !supported.every((method) => UNUSABLE_METHODS.has(String(method)))) return "client_secret_basic";
  throw new AuthError("unsupported_token_auth_method", {
    message: `Incompatible OIDC provider: its token endpoint takes ${supported.slice(0, 5).map(String).join(", ")}, neither client_secret_basic nor client_secret_post`,
  });
}
