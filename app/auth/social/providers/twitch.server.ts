// Twitch: no PKCE, no ID token; the Helix API wants the client id beside the token. It never vouches for an
// address.
import * as arctic from "arctic";
import { getJson, requireAccessToken, text, tokensFrom, type ProviderDefinition, type SocialProfile } from "~/auth/social/providers/shared.server";

export const twitchProfile = (answer: Record<string, any>): SocialProfile => {
  const user = answer.data?.[0] ?? {};
  return {
    id: String(user.id),
    email: text(user.email),
    emailVerified: false, // Twitch does not say whether the address was confirmed
    name: text(user.display_name) ?? text(user.login) ?? "",
    image: text(user.profile_image_url),
  };
};

export const twitch: ProviderDefinition = (config, redirectUri) => {
  const client = new arctic.Twitch(config.clientId, config.clientSecret, redirectUri);
  return {
    pkce: false,
    defaultScopes: ["user:read:email"],
    authorizationUrl: async ({ state, scopes }) => client.createAuthorizationURL(state, scopes),
    exchangeCode: async (code) => tokensFrom(await client.validateAuthorizationCode(code)),
    refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
    profile: async (tokens) =>
      twitchProfile(await getJson("https://api.twitch.tv/helix/users", requireAccessToken(tokens), { headers: { "Client-Id": config.clientId } })),
  };
};
