// X (Twitter): PKCE, no ID token; an address is shared only as `confirmed_email`, so one that is shared is vouched
// for.
import * as arctic from "arctic";
import { getJson, requireAccessToken, text, tokensFrom, type ProviderDefinition, type SocialProfile } from "~/auth/social/providers/shared.server";

export const twitterProfile = (answer: Record<string, any>): SocialProfile => {
  const user = answer.data ?? {};
  return {
    id: String(user.id),
    email: text(user.confirmed_email),
    emailVerified: Boolean(text(user.confirmed_email)),
    name: text(user.name) ?? text(user.username) ?? "",
    image: text(user.profile_image_url),
  };
};

export const twitter: ProviderDefinition = (config, redirectUri) => {
  const client = new arctic.Twitter(config.clientId, config.clientSecret, redirectUri);
  return {
    pkce: true,
    defaultScopes: ["users.read", "tweet.read", "offline.access", "users.email"],
    authorizationUrl: async ({ state, codeVerifier, scopes }) => client.createAuthorizationURL(state, codeVerifier, scopes),
    exchangeCode: async (code, verifier) => tokensFrom(await client.validateAuthorizationCode(code, verifier)),
    refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
    profile: async (tokens) =>
      twitterProfile(await getJson("https://api.x.com/2/users/me?user.fields=profile_image_url,confirmed_email", requireAccessToken(tokens))),
  };
};
