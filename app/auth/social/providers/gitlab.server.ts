// GitLab (gitlab.com or the instance in GITLAB_URL): no PKCE, no ID token; the address is vouched for once
// GitLab has a confirmation date for it.
import * as arctic from "arctic";
import { getJson, requireAccessToken, text, tokensFrom, type ProviderDefinition, type SocialProfile } from "~/auth/social/providers/shared.server";

export const gitlabProfile = (user: Record<string, any>): SocialProfile => ({
  id: String(user.id),
  email: text(user.email),
  emailVerified: Boolean(user.confirmed_at),
  name: text(user.name) ?? text(user.username) ?? "",
  image: text(user.avatar_url),
});

export const gitlab: ProviderDefinition = (config, redirectUri) => {
  const baseUrl = config.baseUrl ?? "https://gitlab.com";
  const client = new arctic.GitLab(baseUrl, config.clientId, config.clientSecret, redirectUri);
  return {
    pkce: false,
    defaultScopes: ["read_user"],
    authorizationUrl: async ({ state, scopes }) => client.createAuthorizationURL(state, scopes),
    exchangeCode: async (code) => tokensFrom(await client.validateAuthorizationCode(code)),
    refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
    profile: async (tokens) => gitlabProfile(await getJson(`${baseUrl}/api/v4/user`, requireAccessToken(tokens))),
  };
};
