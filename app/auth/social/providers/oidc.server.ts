// Any OpenID Connect provider, found through its discovery document (OIDC_ISSUER; fetched once, when first
// needed): PKCE and a nonce. The identity is the ID token, verified against the issuer's keys; `email_verified`
// says whether it vouches for the address.
import * as arctic from "arctic";
import type { OidcProviderConfig } from "~/auth/social/env";
import { AuthError } from "~/auth/errors";
import {
  callbackUrl,
  getJson,
  profileFromClaims,
  tokensFrom,
  verifyIdTokenWith,
  type IdTokenRules,
  type SocialProvider,
} from "~/auth/social/providers/shared.server";

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint?: string;
  jwks_uri: string;
  issuer: string;
}

export function oidcProvider(config: OidcProviderConfig): SocialProvider {
  const client = new arctic.OAuth2Client(config.clientId, config.clientSecret, callbackUrl(config.id));
  let discovery: Promise<Discovery> | null = null;
  const discover = () => {
    discovery ??= fetch(`${config.issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000) })
      .then(async (response) => {
        if (!response.ok) throw new Error(`discovery answered ${response.status}`);
        const document = (await response.json()) as Discovery;
        if (document.issuer.replace(/\/+$/, "") !== config.issuer) throw new Error(`discovery names issuer ${document.issuer}`);
        return document;
      })
      .catch((error) => {
        discovery = null; // try again on the next request
        console.error(`[latchkey] OpenID discovery for ${config.issuer} failed:`, (error as Error).message);
        throw new AuthError("FAILED_TO_GET_USER_INFO");
      });
    return discovery;
  };
  const rulesFor = async (): Promise<IdTokenRules> => {
    const document = await discover();
    return { jwksUrl: document.jwks_uri, issuers: [document.issuer], audience: config.clientId };
  };
  return {
    id: config.id,
    name: config.name,
    pkce: true,
    defaultScopes: config.scopes,
    authorizationUrl: async ({ state, codeVerifier, scopes, nonce }) => {
      const document = await discover();
      const url = client.createAuthorizationURLWithPKCE(document.authorization_endpoint, state, arctic.CodeChallengeMethod.S256, codeVerifier, scopes);
      url.searchParams.set("nonce", nonce);
      return url;
    },
    exchangeCode: async (code, verifier) => tokensFrom(await client.validateAuthorizationCode((await discover()).token_endpoint, code, verifier)),
    refresh: async (token) => tokensFrom(await client.refreshAccessToken((await discover()).token_endpoint, token, [])),
    // The identity is the ID token, verified against the issuer's keys (signature, issuer, audience, expiry,
    // nonce); the user-info endpoint only fills in what the token leaves out.
    profile: async (tokens, nonce) => {
      if (!tokens.idToken) throw new AuthError("FAILED_TO_GET_USER_INFO");
      const claims = await verifyIdTokenWith(await rulesFor(), tokens.idToken, nonce);
      const document = await discover();
      let extra: Record<string, unknown> = {};
      if (document.userinfo_endpoint && tokens.accessToken) {
        extra = await getJson(document.userinfo_endpoint, tokens.accessToken).catch(() => ({}));
        if (extra.sub !== claims.sub) extra = {};
      }
      return profileFromClaims({ ...extra, ...claims });
    },
    verifyIdToken: async (token, nonce) => profileFromClaims(await verifyIdTokenWith(await rulesFor(), token, nonce)),
  };
}
