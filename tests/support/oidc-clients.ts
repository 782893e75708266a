// Registers OpenID provider clients straight in a test database, as `npm run oidc -- add-client` stores them
// (the secret only as its SHA-256), without paying for the CLI's start per client. The CLI itself is tested once
// in tests/api/oidc-provider.test.ts. And the application's side of a sign-in, with openid-client, for the API
// and browser tests alike.
import { createHash, randomBytes } from "node:crypto";
import * as oidc from "openid-client";
import type { ApiClient } from "./client";
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
  options: { name?: string; public?: boolean; trusted?: boolean; redirectUri?: string; postLogoutRedirectUri?: string; homepageUrl?: string } = {},
): Promise<RegisteredClient> {
  const clientId = `client-${randomBytes(8).toString("hex")}`;
  const clientSecret = options.public ? null : randomBytes(32).toString("base64url");
  const redirectUri = options.redirectUri ?? `https://app.example.com/callback/${clientId}`;
  const postLogoutRedirectUri = options.postLogoutRedirectUri ?? "https://app.example.com/signed-out";
  await query(
    database,
    `INSERT INTO "oidcClient" ("id", "name", "secretHash", "redirectUris", "postLogoutRedirectUris", "trusted", "createdAt", "homepageUrl") VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      clientId,
      options.name ?? "Team Wiki",
      clientSecret === null ? null : createHash("sha256").update(clientSecret).digest("hex"),
      JSON.stringify([redirectUri]),
      JSON.stringify([postLogoutRedirectUri]),
      database.kind === "sqlite" ? Number(options.trusted === true) : options.trusted === true,
      database.kind === "sqlite" ? Date.now() : new Date(),
      options.homepageUrl ?? null,
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

/**
 * Follows a browser's redirects from `start` until the address leaves the browser's server (the application's
 * callback), or a page answers. Returns the last response and, if reached, the callback URL.
 */
export async function browse(browser: ApiClient, start: string) {
  let url = new URL(start, browser.baseUrl);
  for (let hops = 0; hops < 20; hops++) {
    if (url.origin !== new URL(browser.baseUrl).origin) return { callback: url, response: null, url };
    const response = await browser.get(url.pathname + url.search);
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) return { callback: null, response, url };
    url = new URL(location, url);
  }
  throw new Error("too many redirects");
}

/** A signed-in person's browser goes through an authorization request, allowing on the consent page if asked. */
export async function authorizeIn(browser: ApiClient, started: AuthorizationRequest): Promise<URL> {
  let step = await browse(browser, started.url.href);
  if (step.response?.status === 200 && step.url.pathname.startsWith("/oauth2/interaction/")) {
    const posted = await browser.request("POST", step.url.pathname, {
      rawBody: new URLSearchParams({ intent: "allow" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    if (posted.status < 300) throw new Error(`the consent answer was not taken: ${posted.status} ${posted.text.slice(0, 300)}`);
    step = await browse(browser, posted.headers.get("location")!);
  }
  if (!step.callback) throw new Error(`no callback: ${step.response?.status} ${step.url}`);
  return step.callback;
}

/** The application's side of a whole sign-in: the request, the person's browser through it, and the code exchanged. */
export async function applicationSignIn(config: oidc.Configuration, app: RegisteredClient, browser: ApiClient, extra: Record<string, string> = {}) {
  const started = await authorizationRequest(config, app, extra);
  const callback = await authorizeIn(browser, started);
  return oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: started.verifier, expectedState: started.state, expectedNonce: started.nonce });
}
