// Google: PKCE and a nonce; the standard claims from its user-info endpoint, vouched for by `email_verified`.
// ID tokens a client obtained itself are verified against Google's keys, issuer and this client id.
import * as arctic from "arctic";
import {
  getJson,
  profileFromClaims,
  requireAccessToken,
  tokensFrom,
  verifyIdTokenWith,
  type IdTokenRules,
  type ProviderDefinition,
} from "~/auth/social/providers/shared.server";

export const google: ProviderDefinition = (config, redirectUri) => {
  const client = new arctic.Google(config.clientId, config.clientSecret, redirectUri);
  const rules: IdTokenRules = {
    jwksUrl: "https://www.googleapis.com/oauth2/v3/certs",
    issuers: ["https://accounts.google.com", "accounts.google.com"],
    audience: config.clientId,
  };
  return {
    pkce: true,
    defaultScopes: ["openid", "email", "profile"],
    authorizationUrl: async ({ state, codeVerifier, scopes, nonce }) => {
      const url = client.createAuthorizationURL(state, codeVerifier, scopes);
      url.searchParams.set("nonce", nonce);
      return url;
    },
    exchangeCode: async (code, verifier) => tokensFrom(await client.validateAuthorizationCode(code, verifier)),
    refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
    profile: async (tokens) => profileFromClaims(await getJson("https://openidconnect.googleapis.com/v1/userinfo", requireAccessToken(tokens))),
    verifyIdToken: async (token, nonce) => profileFromClaims(await verifyIdTokenWith(rules, token, nonce)),
  };
};
