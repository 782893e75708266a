// The relying-party half of an OIDC connection (docs/decisions/070-sso-connections.md): the authorization URL, the
// code exchange (client_secret_basic or _post), and the identity — the ID token verified with `jose` against the
// IdP's JWKS (signature, `iss` = the registered issuer, `aud` contains the client id, `azp`, `exp` with 30 s
// tolerance, the nonce); userinfo only fills in claims for the same `sub`. Every request goes through
// outbound.server.ts, so the IdP's URLs are checked at each fetch.
import { createHash } from "node:crypto";
import { createLocalJWKSet, jwtVerify, type JSONWebKeySet, type JWTPayload } from "jose";
import { decrypt } from "~/auth/core/crypto.server";
import { nonceMatches } from "~/auth/social/providers/shared.server";
import type { StoredOidcConfig } from "~/auth/sso/presenters.server";
import { redirectUri } from "~/auth/sso/presenters.server";
import { idpJson } from "~/auth/sso/outbound.server";

export const ID_TOKEN_CLOCK_TOLERANCE_SECONDS = 30;
const JWKS_MEMORY_MS = 5 * 60 * 1000;

/** A failure of the return trip, as its `?error=` code. */
export class SsoCallbackError extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

export function authorizationUrl(
  providerId: string,
  config: StoredOidcConfig,
  input: { state: string; codeVerifier: string; nonce: string; scopes: string[]; loginHint?: string },
): string {
  const url = new URL(config.authorizationEndpoint);
  url.searchParams.set("client_id", config.clientId);
  url.searchParams.set("redirect_uri", redirectUri(providerId));
  url.searchParams.set("response_type", "code");
  url.searchParams.set("state", input.state);
  url.searchParams.set("scope", input.scopes.join(" "));
  url.searchParams.set("nonce", input.nonce);
  if (config.pkce) {
    url.searchParams.set("code_challenge", createHash("sha256").update(input.codeVerifier).digest("base64url"));
    url.searchParams.set("code_challenge_method", "S256");
  }
  if (input.loginHint) url.searchParams.set("login_hint", input.loginHint);
  return url.href;
}

export interface IdpTokens {
  idToken: string;
  accessToken: string | null;
}

export async function exchangeCode(providerId: string, config: StoredOidcConfig, code: string, codeVerifier: string): Promise<IdpTokens> {
  const form = new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: redirectUri(providerId) });
  if (config.pkce) form.set("code_verifier", codeVerifier);
  const headers: Record<string, string> = { "Content-Type": "application/x-www-form-urlencoded" };
  let secret: string;
  try {
    secret = decrypt(config.clientSecret);
  } catch {
    throw new SsoCallbackError("invalid_provider"); // AUTH_SECRET changed since the connection was registered
  }
  if (config.tokenEndpointAuthentication === "client_secret_post") {
    form.set("client_id", config.clientId);
    form.set("client_secret", secret);
  } else {
    // RFC 6749 §2.3.1: each part form-encoded before the base64.
    const pair = `${encodeURIComponent(config.clientId)}:${encodeURIComponent(secret)}`;
    headers.Authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
  }
  let answer: Record<string, unknown>;
  try {
    answer = await idpJson(config.tokenEndpoint, { method: "POST", headers, body: form.toString() });
  } catch {
    throw new SsoCallbackError("token_exchange_failed");
  }
  if (typeof answer.id_token !== "string" || !answer.id_token) throw new SsoCallbackError("invalid_id_token");
  return { idToken: answer.id_token, accessToken: typeof answer.access_token === "string" ? answer.access_token : null };
}

const jwksMemory = new Map<string, { keys: ReturnType<typeof createLocalJWKSet>; until: number }>();

async function keysOf(jwksEndpoint: string, fresh: boolean) {
  const known = jwksMemory.get(jwksEndpoint);
  if (known && !fresh && known.until > Date.now()) return known.keys;
  const document = (await idpJson(jwksEndpoint)) as unknown as JSONWebKeySet;
  if (!Array.isArray(document.keys)) throw new Error("not a key set");
  const keys = createLocalJWKSet(document);
  jwksMemory.set(jwksEndpoint, { keys, until: Date.now() + JWKS_MEMORY_MS });
  return keys;
}

export async function verifyIdToken(issuer: string, config: StoredOidcConfig, idToken: string, nonce: string): Promise<JWTPayload> {
  const verify = async (fresh: boolean) =>
    (
      await jwtVerify(idToken, await keysOf(config.jwksEndpoint, fresh), {
        issuer: [issuer, `${issuer}/`],
        audience: config.clientId,
        clockTolerance: ID_TOKEN_CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ["exp", "sub"],
        algorithms: ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"],
      })
    ).payload;
  let payload: JWTPayload;
  try {
    payload = await verify(false);
  } catch (error) {
    // A key the remembered set does not have: the IdP rotated; fetch once more.
    if ((error as { code?: string }).code !== "ERR_JWKS_NO_MATCHING_KEY") throw new SsoCallbackError("invalid_id_token");
    payload = await verify(true).catch(() => {
      throw new SsoCallbackError("invalid_id_token");
    });
  }
  // OpenID Connect Core 3.1.3.7: with several audiences azp must be present; when present it must be us.
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if ((audiences.length > 1 || payload.azp !== undefined) && payload.azp !== config.clientId) throw new SsoCallbackError("invalid_id_token");
  if (!nonceMatches(payload.nonce, nonce)) throw new SsoCallbackError("invalid_id_token");
  return payload;
}

/** Userinfo's claims when it answers for the same subject; nothing otherwise (the ID token is the identity). */
export async function userInfo(config: StoredOidcConfig, accessToken: string | null, sub: string): Promise<Record<string, unknown>> {
  if (!config.userInfoEndpoint || !accessToken) return {};
  try {
    const claims = await idpJson(config.userInfoEndpoint, { headers: { Authorization: `Bearer ${accessToken}` } });
    return claims.sub === sub ? claims : {};
  } catch {
    return {};
  }
}

export interface SsoProfile {
  sub: string;
  email: string | null;
  name: string;
  image: string | null;
}

const text = (value: unknown) => (typeof value === "string" && value.trim() ? value.trim() : null);

/** The person as the connection's mapping reads the claims (defaults: email, name, picture). */
export function profileOf(claims: Record<string, unknown>, mapping: Record<string, unknown> = {}): SsoProfile {
  const field = (name: string, fallback: string) => (typeof mapping[name] === "string" ? (mapping[name] as string) : fallback);
  const name = text(claims[field("name", "name")]) ?? ([text(claims.given_name), text(claims.family_name)].filter(Boolean).join(" ") || "");
  return {
    sub: String(claims.sub),
    email: text(claims[field("email", "email")]),
    name,
    image: text(claims[field("image", "picture")]),
  };
}
