// LinkedIn: no PKCE; the standard claims from its OpenID user-info, vouched for by `email_verified`. No ID-token
// path.
import * as arctic from "arctic";
import { getJson, profileFromClaims, requireAccessToken, tokensFrom, type ProviderDefinition } from "~/auth/social/providers/shared.server";

export const linkedin: ProviderDefinition = (config, redirectUri) => {
  const client = new arctic.LinkedIn(config.clientId, config.clientSecret, redirectUri);
  return {
    pkce: false,
    defaultScopes: ["openid", "profile", "email"],
    authorizationUrl: async ({ state, scopes }) => client.createAuthorizationURL(state, scopes),
    exchangeCode: async (code) => tokensFrom(await client.validateAuthorizationCode(code)),
    refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
    profile: async (tokens) => profileFromClaims(await getJson("https://api.linkedin.com/v2/userinfo", requireAccessToken(tokens))),
  };
};
