// Facebook: no PKCE, no refresh, no ID token; it never vouches for an address.
import * as arctic from "arctic";
import { getJson, requireAccessToken, text, tokensFrom, type ProviderDefinition, type SocialProfile } from "~/auth/social/providers/shared.server";

export const facebookProfile = (user: Record<string, any>): SocialProfile => ({
  id: String(user.id),
  email: text(user.email),
  emailVerified: false, // Facebook does not say whether the address was confirmed
  name: text(user.name) ?? "",
  image: text(user.picture?.data?.url),
});

export const facebook: ProviderDefinition = (config, redirectUri) => {
  const client = new arctic.Facebook(config.clientId, config.clientSecret, redirectUri);
  return {
    pkce: false,
    defaultScopes: ["email", "public_profile"],
    authorizationUrl: async ({ state, scopes }) => client.createAuthorizationURL(state, scopes),
    exchangeCode: async (code) => tokensFrom(await client.validateAuthorizationCode(code)),
    profile: async (tokens) => facebookProfile(await getJson("https://graph.facebook.com/me?fields=id,name,email,picture", requireAccessToken(tokens))),
  };
};
