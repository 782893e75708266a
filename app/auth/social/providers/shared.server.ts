// What every provider file shares: the provider interface, arctic's tokens read into ours, the user-info call,
// the standard claims' mapping, and ID-token verification with its nonce rule (docs/decisions/021-social-sign-in.md,
// docs/decisions/031-id-token-sign-in.md).
import type * as arctic from "arctic";
import { createRemoteJWKSet, jwtVerify, type JWTPayload } from "jose";
import type { OAuthProviderConfig } from "~/auth/social/env";
import { safeEqual, sha256Hex } from "~/auth/core/crypto.server";
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

/** What one built-in provider's file declares; the registry adds its id and button name. */
export type ProviderDefinition = (config: OAuthProviderConfig, redirectUri: string) => Omit<SocialProvider, "id" | "name">;

export const callbackUrl = (providerId: string) => `${env.BASE_URL}/api/auth/callback/${providerId}`;

export function tokensFrom(tokens: arctic.OAuth2Tokens): ProviderTokens {
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
export async function getJson(url: string, accessToken: string, init: RequestInit = {}): Promise<Record<string, any>> {
  const response = await fetch(url, {
    ...init,
    headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json", "User-Agent": "Latchkey", ...init.headers },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new AuthError("FAILED_TO_GET_USER_INFO");
  return (await response.json()) as Record<string, any>;
}

export function requireAccessToken(tokens: ProviderTokens): string {
  if (!tokens.accessToken) throw new AuthError("FAILED_TO_GET_USER_INFO");
  return tokens.accessToken;
}

export const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);
export const bool = (value: unknown) => value === true || value === "true";

/** The standard OpenID claims (Google, Microsoft, LinkedIn, Apple and the OpenID provider) as a profile. */
export const profileFromClaims = (claims: Record<string, any>): SocialProfile => ({
  id: String(claims.sub),
  email: text(claims.email),
  emailVerified: bool(claims.email_verified),
  name: text(claims.name) ?? ([text(claims.given_name), text(claims.family_name)].filter(Boolean).join(" ") || text(claims.preferred_username) || ""),
  image: text(claims.picture),
});

export interface IdTokenRules {
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

export async function verifyIdTokenWith(rules: IdTokenRules, token: string, nonce: string | null | undefined): Promise<JWTPayload> {
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
