// Spotify: PKCE, no ID token; it never vouches for an address.
import * as arctic from "arctic";
import { getJson, requireAccessToken, text, tokensFrom, type ProviderDefinition, type SocialProfile } from "~/auth/social/providers/shared.server";

export const spotifyProfile = (user: Record<string, any>): SocialProfile => ({
  id: String(user.id),
  email: text(user.email),
  emailVerified: false, // Spotify does not say whether the address was confirmed
  name: text(user.display_name) ?? "",
  image: text(user.images?.[0]?.url),
});

export const spotify: ProviderDefinition = (config, redirectUri) => {
  const client = new arctic.Spotify(config.clientId, config.clientSecret, redirectUri);
  return {
    pkce: true,
    defaultScopes: ["user-read-email"],
    authorizationUrl: async ({ state, codeVerifier, scopes }) => client.createAuthorizationURL(state, codeVerifier, scopes),
    exchangeCode: async (code, verifier) => tokensFrom(await client.validateAuthorizationCode(code, verifier)),
    refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
    profile: async (tokens) => spotifyProfile(await getJson("https://api.spotify.com/v1/me", requireAccessToken(tokens))),
  };
};
