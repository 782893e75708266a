// Dropbox: no PKCE, no ID token; offline access for a refresh token. The address is vouched for by
// `email_verified`.
import * as arctic from "arctic";
import { bool, getJson, requireAccessToken, text, tokensFrom, type ProviderDefinition, type SocialProfile } from "~/auth/social/providers/shared.server";

export const dropboxProfile = (user: Record<string, any>): SocialProfile => ({
  id: String(user.account_id),
  email: text(user.email),
  emailVerified: bool(user.email_verified),
  name: text(user.name?.display_name) ?? "",
  image: text(user.profile_photo_url),
});

export const dropbox: ProviderDefinition = (config, redirectUri) => {
  const client = new arctic.Dropbox(config.clientId, config.clientSecret, redirectUri);
  return {
    pkce: false,
    defaultScopes: ["account_info.read"],
    authorizationUrl: async ({ state, scopes }) => {
      const url = client.createAuthorizationURL(state, scopes);
      url.searchParams.set("token_access_type", "offline");
      return url;
    },
    exchangeCode: async (code) => tokensFrom(await client.validateAuthorizationCode(code)),
    refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
    profile: async (tokens) =>
      dropboxProfile(await getJson("https://api.dropboxapi.com/2/users/get_current_account", requireAccessToken(tokens), { method: "POST" })),
  };
};
