// Apple: no PKCE; a nonce, and a form post back when the name and e-mail are asked for. The identity is the ID
// token from Apple's token endpoint (vouched for by `email_verified`, which Apple sends as a string). ID tokens a
// client obtained itself may carry the SHA-256 of the nonce (docs/decisions/031-id-token-sign-in.md).
import * as arctic from "arctic";
import { decodeJwt, type JWTPayload } from "jose";
import { AuthError } from "~/auth/errors";
import { nonceMatches, profileFromClaims, tokensFrom, verifyIdTokenWith, type IdTokenRules, type ProviderDefinition } from "~/auth/social/providers/shared.server";

export const apple: ProviderDefinition = (config, redirectUri) => {
  const key = config.apple!;
  const der = Buffer.from(key.privateKey.replace(/-----[^-]+-----/g, "").replace(/\s+/g, ""), "base64");
  const client = new arctic.Apple(config.clientId, key.teamId, key.keyId, new Uint8Array(der), redirectUri);
  const rules: IdTokenRules = {
    jwksUrl: "https://appleid.apple.com/auth/keys",
    issuers: ["https://appleid.apple.com"],
    audience: config.clientId,
    hashedNonce: true,
  };
  return {
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
      return profileFromClaims(claims);
    },
    verifyIdToken: async (token, nonce) => profileFromClaims(await verifyIdTokenWith(rules, token, nonce)),
  };
};
