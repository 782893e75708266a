// Reddit: no PKCE, no ID token; a permanent grant for a refresh token. It shares no address, so it vouches for
// none.
import * as arctic from "arctic";
import { getJson, requireAccessToken, text, tokensFrom, type ProviderDefinition, type SocialProfile } from "~/auth/social/providers/shared.server";

export const redditProfile = (user: Record<string, any>): SocialProfile => ({
  id: String(user.id),
  email: null, // Reddit shares no address
  emailVerified: false,
  name: text(user.name) ?? "",
  image: text(user.icon_img)?.split("?")[0] ?? null,
});

export const reddit: ProviderDefinition = (config, redirectUri) => {
  const client = new arctic.Reddit(config.clientId, config.clientSecret, redirectUri);
  return {
    pkce: false,
    defaultScopes: ["identity"],
    authorizationUrl: async ({ state, scopes }) => {
      const url = client.createAuthorizationURL(state, scopes);
      url.searchParams.set("duration", "permanent");
      return url;
    },
    exchangeCode: async (code) => tokensFrom(await client.validateAuthorizationCode(code)),
    refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
    profile: async (tokens) => redditProfile(await getJson("https://oauth.reddit.com/api/v1/me", requireAccessToken(tokens))),
  };
};
