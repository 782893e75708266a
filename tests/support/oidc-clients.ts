// Registers OpenID provider clients straight in a test database, as `npm run oidc -- add-client` stores them
// (the secret only as its SHA-256), without paying for the CLI's start per client. The CLI itself is tested once
// in tests/api/oidc-provider.test.ts. And the application's side of a sign-in, with openid-client, for the API
// and browser tests alike.
import { createHash, randomBytes } from "node:crypto";
import * as oidc from "openid-client";
import type { TestDatabase } from "./database";
import { query } from "./sql";

export interface RegisteredClient {
  clientId: string;
  clientSecret: string | null;
  redirectUri: string;
  postLogoutRedirectUri: string;
}

export async function registerClient(
  database: Pick<TestDatabase, "kind" | "url">,
  options: { name?: string; public?: boolean; trusted?: boolean; redirectUri?: string; postLogoutRedirectUri?: string } = {},
): Promise<RegisteredClient> {
  const clientId = `client-${randomBytes(8).toString("hex")}`;
  const clientSecret = options.public ? null : randomBytes(32).toString("base64url");
  const redirectUri = options.redirectUri ?? `https://app.example.com/callback/${clientId}`;
  const postLogoutRedirectUri = options.postLogoutRedirectUri ?? "https://app.example.com/signed-out";
  await query(
    database,
    `INSERT INTO "oidcClient" ("id", "name", "secretHash", "redirectUris", "postLogoutRedirectUris", "trusted", "createdAt") VALUES (?, ?, ?, ?, ?, ?, ?)`,
    [
      clientId,
      options.name ?? "Team Wiki",
      clientSecret === null ? null : createHash("sha256").update(clientSecret).digest("hex"),
      JSON.stringify([redirectUri]),
      JSON.stringify([postLogoutRedirectUri]),
      database.kind === "sqlite" ? Number(options.trusted === true) : options.trusted === true,
      database.kind === "sqlite" ? Date.now() : new Date(),
    ],
  );
  return { clientId, clientSecret, redirectUri, postLogoutRedirectUri };
}

/** Discovery over plain http (the test servers are not https). */
const insecure = { execute: [oidc.allowInsecureRequests] };

/** The relying party's configuration for a registered client, from discovery. */
export function relyingParty(app: RegisteredClient, base: string, auth: "basic" | "post" = "basic") {
  const method = app.clientSecret === null ? oidc.None() : auth === "basic" ? oidc.ClientSecretBasic(app.clientSecret) : oidc.ClientSecretPost(app.clientSecret);
  return oidc.discovery(new URL(base), app.clientId, undefined, method, insecure);
}

export interface AuthorizationRequest {
  url: URL;
  verifier: string;
  state: string;
  nonce: string;
}

/** An authorization request with PKCE, state and nonce, as an application starts a sign-in. */
export async function authorizationRequest(config: oidc.Configuration, app: RegisteredClient, extra: Record<string, string> = {}): Promise<AuthorizationRequest> {
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: app.redirectUri,
    scope: "openid profile email",
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
    ...extra,
  });
  return { url, verifier, state, nonce };
}
