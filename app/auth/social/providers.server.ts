// One interface over every enabled provider. Endpoints, scopes' spelling, PKCE support and token exchange come
// from arctic; what this file adds is each provider's user-info call and how its answer maps to a profile, and
// the generic OpenID Connect provider found by discovery (docs/decisions/021-social-sign-in.md).
import * as arctic from "arctic";
import { createRemoteJWKSet, decodeJwt, jwtVerify, type JWTPayload } from "jose";
import { PROVIDER_NAMES, type SocialProviderId } from "~/auth/social/provider-ids";
import type { OAuthProviderConfig, OidcProviderConfig } from "~/auth/social/env";
import { safeEqual, sha256Hex } from "~/auth/crypto.server";
import { cleanName } from "~/auth/schemas";
import { AuthError } from "~/auth/errors";
import { env } from "~/env.server";

export interface SocialProfile {
  /** The user's id at the provider (the account's accountId). */
  id: string;
  email: string | null;
  /** Whether the provider vouches that the user controls the address. */
  emailVerified: boolean;
  name: string;
  image: string | null;
}

export interface ProviderTokens {
  accessToken: string | null;
  refreshToken: string | null;
  idToken: string | null;
  accessTokenExpiresAt: Date | null;
  scopes: string[];
}

export interface SocialProvider {
  id: string;
  name: string;
  /** Whether the authorization request carries a PKCE challenge. */
  pkce: boolean;
  defaultScopes: string[];
  authorizationUrl(input: { state: string; codeVerifier: string; scopes: string[]; nonce: string }): Promise<URL>;
  exchangeCode(code: string, codeVerifier: string): Promise<ProviderTokens>;
  refresh?(refreshToken: string): Promise<ProviderTokens>;
  /** The user behind freshly exchanged tokens (the nonce is checked when an ID token carries the identity). */
  profile(tokens: ProviderTokens, nonce: string | null): Promise<SocialProfile>;
  /** Verifies an ID token a client obtained itself (the id-token path of /sign-in/social). */
  verifyIdToken?(token: string, nonce?: string): Promise<SocialProfile>;
}

export const callbackUrl = (providerId: string) => `${env.BASE_URL}/api/auth/callback/${providerId}`;

function tokensFrom(tokens: arctic.OAuth2Tokens): ProviderTokens {
  const data = tokens.data as Record<string, unknown>;
  const has = (key: string) => typeof data[key] === "string" && data[key] !== "";
  return {
    accessToken: has("access_token") ? tokens.accessToken() : null,
    refreshToken: has("refresh_token") ? tokens.refreshToken() : null,
    idToken: has("id_token") ? tokens.idToken() : null,
    accessTokenExpiresAt: typeof data.expires_in === "number" ? tokens.accessTokenExpiresAt() : null,
    scopes: tokens.hasScopes() ? tokens.scopes() : [],
  };
}

/** A provider's API answered something other than 2xx JSON: the callback reports unable_to_get_user_info. */
async function getJson(url: string, accessToken: string, init: RequestInit = {}): Promise<Record<string, any>> {
  const response = await fetch(url, {
    ...init,
    headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json", "User-Agent": "Latchkey", ...init.headers },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new AuthError("FAILED_TO_GET_USER_INFO");
  return (await response.json()) as Record<string, any>;
}

const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);
const bool = (value: unknown) => value === true || value === "true";

/** Recorded user-info answers → profiles. Exported for the per-provider tests. */
export const PROFILE_MAPPERS = {
  github: (user: Record<string, any>, emails: Array<Record<string, any>>): SocialProfile => {
    const primary = emails.find((e) => e.primary) ?? emails.find((e) => e.verified) ?? null;
    return {
      id: String(user.id),
      email: text(primary?.email) ?? text(user.email),
      emailVerified: Boolean(primary?.verified),
      name: text(user.name) ?? text(user.login) ?? "",
      image: text(user.avatar_url),
    };
  },
  oidcClaims: (claims: Record<string, any>): SocialProfile => ({
    id: String(claims.sub),
    email: text(claims.email),
    emailVerified: bool(claims.email_verified),
    name: text(claims.name) ?? ([text(claims.given_name), text(claims.family_name)].filter(Boolean).join(" ") || text(claims.preferred_username) || ""),
    image: text(claims.picture),
  }),
  discord: (user: Record<string, any>): SocialProfile => ({
    id: String(user.id),
    email: text(user.email),
    emailVerified: bool(user.verified),
    name: text(user.global_name) ?? text(user.username) ?? "",
    image: user.avatar ? `https://cdn.discordapp.com/avatars/${user.id}/${user.avatar}.png` : null,
  }),
  facebook: (user: Record<string, any>): SocialProfile => ({
    id: String(user.id),
    email: text(user.email),
    emailVerified: false, // Facebook does not say whether the address was confirmed
    name: text(user.name) ?? "",
    image: text(user.picture?.data?.url),
  }),
  spotify: (user: Record<string, any>): SocialProfile => ({
    id: String(user.id),
    email: text(user.email),
    emailVerified: false,
    name: text(user.display_name) ?? "",
    image: text(user.images?.[0]?.url),
  }),
  twitch: (answer: Record<string, any>): SocialProfile => {
    const user = answer.data?.[0] ?? {};
    return {
      id: String(user.id),
      email: text(user.email),
      emailVerified: false,
      name: text(user.display_name) ?? text(user.login) ?? "",
      image: text(user.profile_image_url),
    };
  },
  twitter: (answer: Record<string, any>): SocialProfile => {
    const user = answer.data ?? {};
    return {
      id: String(user.id),
      email: text(user.confirmed_email),
      emailVerified: Boolean(text(user.confirmed_email)),
      name: text(user.name) ?? text(user.username) ?? "",
      image: text(user.profile_image_url),
    };
  },
  dropbox: (user: Record<string, any>): SocialProfile => ({
    id: String(user.account_id),
    email: text(user.email),
    emailVerified: bool(user.email_verified),
    name: text(user.name?.display_name) ?? "",
    image: text(user.profile_photo_url),
  }),
  gitlab: (user: Record<string, any>): SocialProfile => ({
    id: String(user.id),
    email: text(user.email),
    emailVerified: Boolean(user.confirmed_at),
    name: text(user.name) ?? text(user.username) ?? "",
    image: text(user.avatar_url),
  }),
  reddit: (user: Record<string, any>): SocialProfile => ({
    id: String(user.id),
    email: null, // Reddit shares no address
    emailVerified: false,
    name: text(user.name) ?? "",
    image: text(user.icon_img)?.split("?")[0] ?? null,
  }),
};

function requireAccessToken(tokens: ProviderTokens): string {
  if (!tokens.accessToken) throw new AuthError("FAILED_TO_GET_USER_INFO");
  return tokens.accessToken;
}

interface IdTokenRules {
  jwksUrl: string;
  issuers: string[] | ((payload: JWTPayload) => boolean);
  audience: string;
  /**
   * Apple: a native app hands Apple the SHA-256 (hex) of its raw nonce and the server the raw one, so the token's
   * nonce may be either (as Better Auth's Apple provider accepts).
   */
  hashedNonce?: boolean;
}

/**
 * Whether an ID token's nonce claim matches the nonce this request brings (docs/decisions/031-id-token-sign-in.md):
 * a token that carries a nonce needs the request's, and a request that brings one needs the token to carry it.
 * Compared in constant time.
 */
export function nonceMatches(claimed: unknown, given: string | null | undefined, options: { hashed?: boolean } = {}): boolean {
  if (claimed === undefined && !given) return true;
  if (typeof claimed !== "string" || !claimed || !given) return false;
  if (safeEqual(claimed, given)) return true;
  return Boolean(options.hashed) && safeEqual(claimed, sha256Hex(given));
}

export const ID_TOKEN_CLOCK_TOLERANCE_SECONDS = 30;

const jwksCache = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

async function verifyIdTokenWith(rules: IdTokenRules, token: string, nonce: string | null | undefined): Promise<JWTPayload> {
  let jwks = jwksCache.get(rules.jwksUrl);
  if (!jwks) {
    jwks = createRemoteJWKSet(new URL(rules.jwksUrl), { timeoutDuration: 5_000 });
    jwksCache.set(rules.jwksUrl, jwks);
  }
  try {
    const { payload } = await jwtVerify(token, jwks, {
      audience: rules.audience,
      ...(Array.isArray(rules.issuers) ? { issuer: rules.issuers } : {}),
      clockTolerance: ID_TOKEN_CLOCK_TOLERANCE_SECONDS,
      // An ID token without an expiry would be good forever (and its use could never be forgotten).
      requiredClaims: ["exp"],
    });
    if (typeof rules.issuers === "function" && !rules.issuers(payload)) throw new Error("issuer");
    if (!nonceMatches(payload.nonce, nonce, { hashed: rules.hashedNonce })) throw new Error("nonce");
    if (typeof payload.sub !== "string" || !payload.sub) throw new Error("sub");
    return payload;
  } catch {
    throw new AuthError("INVALID_TOKEN");
  }
}

function oauthProvider(config: OAuthProviderConfig): SocialProvider {
  const redirect = callbackUrl(config.id);
  const base = { id: config.id, name: PROVIDER_NAMES[config.id] };
  switch (config.id) {
    case "github": {
      const client = new arctic.GitHub(config.clientId, config.clientSecret, redirect);
      return {
        ...base,
        pkce: false,
        defaultScopes: ["read:user", "user:email"],
        authorizationUrl: async ({ state, scopes }) => client.createAuthorizationURL(state, scopes),
        exchangeCode: async (code) => tokensFrom(await client.validateAuthorizationCode(code)),
        refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
        profile: async (tokens) => {
          const accessToken = requireAccessToken(tokens);
          const user = await getJson("https://api.github.com/user", accessToken);
          const emails = await getJson("https://api.github.com/user/emails", accessToken).catch(() => []);
          return PROFILE_MAPPERS.github(user, Array.isArray(emails) ? emails : []);
        },
      };
    }
    case "google": {
      const client = new arctic.Google(config.clientId, config.clientSecret, redirect);
      const rules: IdTokenRules = {
        jwksUrl: "https://www.googleapis.com/oauth2/v3/certs",
        issuers: ["https://accounts.google.com", "accounts.google.com"],
        audience: config.clientId,
      };
      return {
        ...base,
        pkce: true,
        defaultScopes: ["openid", "email", "profile"],
        authorizationUrl: async ({ state, codeVerifier, scopes, nonce }) => {
          const url = client.createAuthorizationURL(state, codeVerifier, scopes);
          url.searchParams.set("nonce", nonce);
          return url;
        },
        exchangeCode: async (code, verifier) => tokensFrom(await client.validateAuthorizationCode(code, verifier)),
        refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
        profile: async (tokens) =>
          PROFILE_MAPPERS.oidcClaims(await getJson("https://openidconnect.googleapis.com/v1/userinfo", requireAccessToken(tokens))),
        verifyIdToken: async (token, nonce) => PROFILE_MAPPERS.oidcClaims(await verifyIdTokenWith(rules, token, nonce)),
      };
    }
    case "apple": {
      const key = config.apple!;
      const der = Buffer.from(key.privateKey.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64");
      const client = new arctic.Apple(config.clientId, key.teamId, key.keyId, new Uint8Array(der), redirect);
      const rules: IdTokenRules = {
        jwksUrl: "https://appleid.apple.com/auth/keys",
        issuers: ["https://appleid.apple.com"],
        audience: config.clientId,
        hashedNonce: true,
      };
      return {
        ...base,
        pkce: false,
        defaultScopes: ["name", "email"],
        authorizationUrl: async ({ state, scopes, nonce }) => {
          const url = client.createAuthorizationURL(state, scopes);
          // Apple returns the name and e-mail only with a form post back to the callback.
          if (scopes.length) url.searchParams.set("response_mode", "form_post");
          url.searchParams.set("nonce", nonce);
          return url;
        },
        exchangeCode: async (code) => tokensFrom(await client.validateAuthorizationCode(code)),
        // The ID token comes straight from Apple's token endpoint over TLS; its claims are the identity, once
        // its nonce is the one this sign-in sent (Apple returns the nonce of the authorization request as is).
        profile: async (tokens, nonce) => {
          if (!tokens.idToken) throw new AuthError("FAILED_TO_GET_USER_INFO");
          let claims: JWTPayload;
          try {
            claims = decodeJwt(tokens.idToken);
          } catch {
            throw new AuthError("INVALID_TOKEN");
          }
          if (!nonce || !nonceMatches(claims.nonce, nonce) || ![claims.aud].flat().includes(config.clientId)) throw new AuthError("INVALID_TOKEN");
          return PROFILE_MAPPERS.oidcClaims(claims);
        },
        verifyIdToken: async (token, nonce) => PROFILE_MAPPERS.oidcClaims(await verifyIdTokenWith(rules, token, nonce)),
      };
    }
    case "microsoft": {
      const tenant = config.tenant ?? "common";
      const client = new arctic.MicrosoftEntraId(tenant, config.clientId, config.clientSecret, redirect);
      const rules: IdTokenRules = {
        jwksUrl: `https://login.microsoftonline.com/${tenant}/discovery/v2.0/keys`,
        // Multi-tenant apps get tokens from each user's own tenant: the issuer names that tenant.
        issuers: (payload) => typeof payload.tid === "string" && payload.iss === `https://login.microsoftonline.com/${payload.tid}/v2.0`,
        audience: config.clientId,
      };
      const scopesOf = (scopes: string[]) => scopes;
      return {
        ...base,
        pkce: true,
        defaultScopes: ["openid", "profile", "email", "User.Read", "offline_access"],
        authorizationUrl: async ({ state, codeVerifier, scopes, nonce }) => {
          const url = client.createAuthorizationURL(state, codeVerifier, scopesOf(scopes));
          url.searchParams.set("nonce", nonce);
          return url;
        },
        exchangeCode: async (code, verifier) => tokensFrom(await client.validateAuthorizationCode(code, verifier)),
        refresh: async (token) => tokensFrom(await client.refreshAccessToken(token, ["openid", "profile", "email", "offline_access"])),
        profile: async (tokens) => PROFILE_MAPPERS.oidcClaims(await getJson("https://graph.microsoft.com/oidc/userinfo", requireAccessToken(tokens))),
        verifyIdToken: async (token, nonce) => PROFILE_MAPPERS.oidcClaims(await verifyIdTokenWith(rules, token, nonce)),
      };
    }
    case "discord": {
      const client = new arctic.Discord(config.clientId, config.clientSecret, redirect);
      return {
        ...base,
        pkce: true,
        defaultScopes: ["identify", "email"],
        authorizationUrl: async ({ state, codeVerifier, scopes }) => client.createAuthorizationURL(state, codeVerifier, scopes),
        exchangeCode: async (code, verifier) => tokensFrom(await client.validateAuthorizationCode(code, verifier)),
        refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
        profile: async (tokens) => PROFILE_MAPPERS.discord(await getJson("https://discord.com/api/users/@me", requireAccessToken(tokens))),
      };
    }
    case "facebook": {
      const client = new arctic.Facebook(config.clientId, config.clientSecret, redirect);
      return {
        ...base,
        pkce: false,
        defaultScopes: ["email", "public_profile"],
        authorizationUrl: async ({ state, scopes }) => client.createAuthorizationURL(state, scopes),
        exchangeCode: async (code) => tokensFrom(await client.validateAuthorizationCode(code)),
        profile: async (tokens) =>
          PROFILE_MAPPERS.facebook(await getJson("https://graph.facebook.com/me?fields=id,name,email,picture", requireAccessToken(tokens))),
      };
    }
    case "spotify": {
      const client = new arctic.Spotify(config.clientId, config.clientSecret, redirect);
      return {
        ...base,
        pkce: true,
        defaultScopes: ["user-read-email"],
        authorizationUrl: async ({ state, codeVerifier, scopes }) => client.createAuthorizationURL(state, codeVerifier, scopes),
        exchangeCode: async (code, verifier) => tokensFrom(await client.validateAuthorizationCode(code, verifier)),
        refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
        profile: async (tokens) => PROFILE_MAPPERS.spotify(await getJson("https://api.spotify.com/v1/me", requireAccessToken(tokens))),
      };
    }
    case "twitch": {
      const client = new arctic.Twitch(config.clientId, config.clientSecret, redirect);
      return {
        ...base,
        pkce: false,
        defaultScopes: ["user:read:email"],
        authorizationUrl: async ({ state, scopes }) => client.createAuthorizationURL(state, scopes),
        exchangeCode: async (code) => tokensFrom(await client.validateAuthorizationCode(code)),
        refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
        profile: async (tokens) =>
          PROFILE_MAPPERS.twitch(await getJson("https://api.twitch.tv/helix/users", requireAccessToken(tokens), { headers: { "Client-Id": config.clientId } })),
      };
    }
    case "twitter": {
      const client = new arctic.Twitter(config.clientId, config.clientSecret, redirect);
      return {
        ...base,
        pkce: true,
        defaultScopes: ["users.read", "tweet.read", "offline.access", "users.email"],
        authorizationUrl: async ({ state, codeVerifier, scopes }) => client.createAuthorizationURL(state, codeVerifier, scopes),
        exchangeCode: async (code, verifier) => tokensFrom(await client.validateAuthorizationCode(code, verifier)),
        refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
        profile: async (tokens) =>
          PROFILE_MAPPERS.twitter(
            await getJson("https://api.x.com/2/users/me?user.fields=profile_image_url,confirmed_email", requireAccessToken(tokens)),
          ),
      };
    }
    case "dropbox": {
      const client = new arctic.Dropbox(config.clientId, config.clientSecret, redirect);
      return {
        ...base,
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
          PROFILE_MAPPERS.dropbox(await getJson("https://api.dropboxapi.com/2/users/get_current_account", requireAccessToken(tokens), { method: "POST" })),
      };
    }
    case "linkedin": {
      const client = new arctic.LinkedIn(config.clientId, config.clientSecret, redirect);
      return {
        ...base,
        pkce: false,
        defaultScopes: ["openid", "profile", "email"],
        authorizationUrl: async ({ state, scopes }) => client.createAuthorizationURL(state, scopes),
        exchangeCode: async (code) => tokensFrom(await client.validateAuthorizationCode(code)),
        refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
        profile: async (tokens) => PROFILE_MAPPERS.oidcClaims(await getJson("https://api.linkedin.com/v2/userinfo", requireAccessToken(tokens))),
      };
    }
    case "gitlab": {
      const baseUrl = config.baseUrl ?? "https://gitlab.com";
      const client = new arctic.GitLab(baseUrl, config.clientId, config.clientSecret, redirect);
      return {
        ...base,
        pkce: false,
        defaultScopes: ["read_user"],
        authorizationUrl: async ({ state, scopes }) => client.createAuthorizationURL(state, scopes),
        exchangeCode: async (code) => tokensFrom(await client.validateAuthorizationCode(code)),
        refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
        profile: async (tokens) => PROFILE_MAPPERS.gitlab(await getJson(`${baseUrl}/api/v4/user`, requireAccessToken(tokens))),
      };
    }
    case "reddit": {
      const client = new arctic.Reddit(config.clientId, config.clientSecret, redirect);
      return {
        ...base,
        pkce: false,
        defaultScopes: ["identity"],
        authorizationUrl: async ({ state, scopes }) => {
          const url = client.createAuthorizationURL(state, scopes);
          url.searchParams.set("duration", "permanent");
          return url;
        },
        exchangeCode: async (code) => tokensFrom(await client.validateAuthorizationCode(code)),
        refresh: async (token) => tokensFrom(await client.refreshAccessToken(token)),
        profile: async (tokens) => PROFILE_MAPPERS.reddit(await getJson("https://oauth.reddit.com/api/v1/me", requireAccessToken(tokens))),
      };
    }
  }
}

interface Discovery {
  authorization_endpoint: string;
  token_endpoint: string;
  userinfo_endpoint?: string;
  jwks_uri: string;
  issuer: string;
}

/** Any OpenID Connect provider, found through its discovery document (fetched once, when first needed). */
function oidcProvider(config: OidcProviderConfig): SocialProvider {
  const client = new arctic.OAuth2Client(config.clientId, config.clientSecret, callbackUrl(config.id));
  let discovery: Promise<Discovery> | null = null;
  const discover = () => {
    discovery ??= fetch(`${config.issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000) })
      .then(async (response) => {
        if (!response.ok) throw new Error(`discovery answered ${response.status}`);
        const document = (await response.json()) as Discovery;
        if (document.issuer.replace(/\/+$/, "") !== config.issuer) throw new Error(`discovery names issuer ${document.issuer}`);
        return document;
      })
      .catch((error) => {
        discovery = null; // try again on the next request
        console.error(`[latchkey] OpenID discovery for ${config.issuer} failed:`, (error as Error).message);
        throw new AuthError("FAILED_TO_GET_USER_INFO");
      });
    return discovery;
  };
  const rulesFor = async (): Promise<IdTokenRules> => {
    const document = await discover();
    return { jwksUrl: document.jwks_uri, issuers: [document.issuer], audience: config.clientId };
  };
  return {
    id: config.id,
    name: config.name,
    pkce: true,
    defaultScopes: config.scopes,
    authorizationUrl: async ({ state, codeVerifier, scopes, nonce }) => {
      const document = await discover();
      const url = client.createAuthorizationURLWithPKCE(document.authorization_endpoint, state, arctic.CodeChallengeMethod.S256, codeVerifier, scopes);
      url.searchParams.set("nonce", nonce);
      return url;
    },
    exchangeCode: async (code, verifier) => tokensFrom(await client.validateAuthorizationCode((await discover()).token_endpoint, code, verifier)),
    refresh: async (token) => tokensFrom(await client.refreshAccessToken((await discover()).token_endpoint, token, [])),
    // The identity is the ID token, verified against the issuer's keys (signature, issuer, audience, expiry,
    // nonce); the user-info endpoint only fills in what the token leaves out.
    profile: async (tokens, nonce) => {
      if (!tokens.idToken) throw new AuthError("FAILED_TO_GET_USER_INFO");
      const claims = await verifyIdTokenWith(await rulesFor(), tokens.idToken, nonce);
      const document = await discover();
      let extra: Record<string, unknown> = {};
      if (document.userinfo_endpoint && tokens.accessToken) {
        extra = await getJson(document.userinfo_endpoint, tokens.accessToken).catch(() => ({}));
        if (extra.sub !== claims.sub) extra = {};
      }
      return PROFILE_MAPPERS.oidcClaims({ ...extra, ...claims });
    },
    verifyIdToken: async (token, nonce) => PROFILE_MAPPERS.oidcClaims(await verifyIdTokenWith(await rulesFor(), token, nonce)),
  };
}

/**
 * A provider's profile names become user names, which are shown to others and mailed: what a typed name may not
 * hold (line breaks, control and bidirectional-override characters) becomes a space, and they are bounded.
 */
function withCleanNames(provider: SocialProvider): SocialProvider {
  const clean = (profile: SocialProfile): SocialProfile => ({ ...profile, name: cleanName(profile.name) });
  const verifyIdToken = provider.verifyIdToken;
  return {
    ...provider,
    profile: async (tokens, nonce) => clean(await provider.profile(tokens, nonce)),
    ...(verifyIdToken ? { verifyIdToken: async (token: string, nonce?: string) => clean(await verifyIdToken(token, nonce)) } : {}),
  };
}

const registry = new Map<string, SocialProvider>();
for (const config of env.social.providers) registry.set(config.id, withCleanNames(oauthProvider(config)));
if (env.social.oidc) registry.set(env.social.oidc.id, withCleanNames(oidcProvider(env.social.oidc)));

export function findProvider(id: string): SocialProvider | null {
  return registry.get(id) ?? null;
}

/** Enabled providers, for the pages' buttons and the account's "Linked accounts". */
export function enabledProviders(): Array<{ id: string; name: string }> {
  return [...registry.values()].map(({ id, name }) => ({ id, name }));
}

export function providerFor(id: SocialProviderId | string): SocialProvider {
  const provider = findProvider(id);
  if (!provider) throw new AuthError("PROVIDER_NOT_FOUND");
  return provider;
}
