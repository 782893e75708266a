// Discord: PKCE, no ID token; the address is vouched for when Discord marks the user verified.
import * as arctic from "arctic";
import { bool, getJson, requireAccessToken, text, tokensFrom, type ProviderDefinition, type SocialProfile } from "~/auth/social/providers/shared.server";

export const discordProfile = (user: Record<string, any>): SocialProfile => ({
  id: String(user.id),
  email: text(user.email),
  emailVerified: bool(user.verified),
  name: text(user.global_name) ?? text(user.username) ?? "",
  image: user.avatar ? `https://cdn.discordapp.com/avatars/${user.id}/${user.avatar}.png` : null,
});

export const discord: ProviderDefinition = (config, redirectUri) => {
  const client = new arctic.Discord(config.clientId, config.clientSecret, redirectUri);
  return {
    pkce: true,
    defaultScopes: ["identify", "email"],
    authorizationUrl: async ({ state, codeVerifier, scopes }) => client.createAuthorizationURL(state, codeVerifier, scopes),
    exchangeCode: async (code, verifier) => tokensFrom(await client.validateAuthorizationCode(code, verifier)),
    refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
    profile: async (tokens) => discordProfile(await getJson("https://discord.com/api/users/@me", requireAccessToken(tokens))),
  };
};
