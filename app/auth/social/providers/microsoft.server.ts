// Microsoft (Entra ID): PKCE and a nonce, for the configured tenant; the standard claims from Graph's OpenID
// user-info, vouched for by `email_verified`. ID tokens a client obtained itself are verified against the
// tenant's keys, with the issuer naming the user's own tenant.
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

export const microsoft: ProviderDefinition = (config, redirectUri) => {
  const tenant = config.tenant ?? "common";
  const client = new arctic.MicrosoftEntraId(tenant, config.clientId, config.clientSecret, redirectUri);
  const rules: IdTokenRules = {
    jwksUrl: `https://login.microsoftonline.com/${tenant}/discovery/v2.0/keys`,
    // Multi-tenant apps get tokens from each user's own tenant: the issuer names that tenant.
    issuers: (payload) => typeof payload.tid === "string" && payload.iss === `https://login.microsoftonline.com/${payload.tid}/v2.0`,
    audience: config.clientId,
  };
  return {
    pkce: true,
    defaultScopes: ["openid", "profile", "email", "User.Read", "offline_access"],
    authorizationUrl: async ({ state, codeVerifier, scopes, nonce }) => {
      const url = client.createAuthorizationURL(state, codeVerifier, scopes);
      url.searchParams.set("nonce", nonce);
      return url;
    },
    exchangeCode: async (code, verifier) => tokensFrom(await client.validateAuthorizationCode(code, verifier)),
    refresh: async (token) => tokensFrom(await client.refreshAccessToken(token, ["openid", "profile", "email", "offline_access"])),
    profile: async (tokens) => profileFromClaims(await getJson("https://graph.microsoft.com/oidc/userinfo", requireAccessToken(tokens))),
    verifyIdToken: async (token, nonce) => profileFromClaims(await verifyIdTokenWith(rules, token, nonce)),
  };
};
