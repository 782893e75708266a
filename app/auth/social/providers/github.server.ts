// GitHub: no PKCE (arctic's class takes no verifier), no ID token. The address is the primary one from
// /user/emails, vouched for when GitHub marks it verified.
import * as arctic from "arctic";
import { getJson, requireAccessToken, text, tokensFrom, type ProviderDefinition, type SocialProfile } from "~/auth/social/providers/shared.server";

export const githubProfile = (user: Record<string, any>, emails: Array<Record<string, any>>): SocialProfile => {
  const primary = emails.find((e) => e.primary) ?? emails.find((e) => e.verified) ?? null;
  return {
    id: String(user.id),
    email: text(primary?.email) ?? text(user.email),
    emailVerified: Boolean(primary?.verified),
    name: text(user.name) ?? text(user.login) ?? "",
    image: text(user.avatar_url),
  };
};

export const github: ProviderDefinition = (config, redirectUri) => {
  const client = new arctic.GitHub(config.clientId, config.clientSecret, redirectUri);
  return {
    pkce: false,
    defaultScopes: ["read:user", "user:email"],
    authorizationUrl: async ({ state, scopes }) => client.createAuthorizationURL(state, scopes),
    exchangeCode: async (code) => tokensFrom(await client.validateAuthorizationCode(code)),
    refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
    profile: async (tokens) => {
      const accessToken = requireAccessToken(tokens);
      const user = await getJson("https://api.github.com/user", accessToken);
      const emails = await getJson("https://api.github.com/user/emails", accessToken).catch(() => []);
      return githubProfile(user, Array.isArray(emails) ? emails : []);
    },
  };
};
