// "Sign in with Latchkey": the OpenID provider driven by a certified relying party (openid-client) against the
// running server, the person's side (sign-in, consent) driven through the pages over HTTP with cookies. The
// browser test with JavaScript off is tests/e2e/oidc-provider.spec.ts.
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { createAuthClient } from "better-auth/client";
import { jwtClient } from "better-auth/client/plugins";
import * as jose from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserFetch } from "../support/better-auth";
import { ApiClient, eventually, PASSWORD, signUp, uniqueEmail, shownText } from "../support/client";
import { databaseKindUnderTest } from "../support/database";
import { authorizationRequest, registerClient, relyingParty as discoverAs, type AuthorizationRequest, type RegisteredClient } from "../support/oidc-clients";
import { startServer, TEST_SECRET, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

/** The relying party's configuration for a registered client, from discovery on this file's server. */
const relyingParty = (app: RegisteredClient, base = server.baseUrl, auth: "basic" | "post" = "basic") => discoverAs(app, base, auth);

const form = (fields: Record<string, string>) => ({ rawBody: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });

/**
 * Follows a browser's redirects from `start` until the address leaves the server (the application's callback),
 * or a page answers. Returns the last response and, if reached, the callback URL.
 */
async function browse(browser: ApiClient, start: string) {
  let url = new URL(start, server.baseUrl);
  for (let hops = 0; hops < 20; hops++) {
    if (url.origin !== new URL(server.baseUrl).origin) return { callback: url, response: null };
    const response = await browser.get(url.pathname + url.search);
    const location = response.headers.get("location");
    if (response.status < 300 || response.status >= 400 || !location) return { callback: null, response, url };
    url = new URL(location, url);
  }
  throw new Error("too many redirects");
}


/** A signed-in person's browser goes through the request, allowing on the consent page if asked. */
async function authorize(browser: ApiClient, started: AuthorizationRequest, answer: "allow" | "deny" = "allow") {
  let step = await browse(browser, started.url.href);
  if (step.response && step.response.status === 200 && step.url!.pathname.startsWith("/oauth2/interaction/")) {
    expect(step.response.text).toContain("Allow");
    const posted = await browser.request("POST", step.url!.pathname, form({ intent: answer }));
    expect(posted.status, posted.text).toBeGreaterThanOrEqual(300);
    step = await browse(browser, posted.headers.get("location")!);
  }
  if (!step.callback) throw new Error(`no callback: ${step.response?.status} ${step.url} ${step.response?.text.replace(/<style>[\s\S]*<\/style>/, "").replace(/<[^>]+>/g, " ").replace(/\s+/g, " ").slice(0, 600)}`);
  return step.callback;
}

async function person() {
  const browser = new ApiClient(server.baseUrl);
  const account = await signUp(browser, { name: "Ada Lovelace" });
  return { browser, ...account };
}

async function signedInFlow(app: RegisteredClient, extra: Record<string, string> = {}) {
  const config = await relyingParty(app);
  const someone = await person();
  const started = await authorizationRequest(config, app, extra);
  const callback = await authorize(someone.browser, started);
  const tokens = await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: started.verifier, expectedState: started.state, expectedNonce: started.nonce });
  return { config, someone, started, callback, tokens };
}

describe("discovery", () => {
  it("names the issuer (BASE_URL) and every endpoint under /api/auth/oauth2", async () => {
    const response = await new ApiClient(server.baseUrl).get("/.well-known/openid-configuration");
    expect(response.status).toBe(200);
    const issuer = server.baseUrl.replace(/\/$/, "");
    expect(response.body.issuer).toBe(issuer);
    for (const key of ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri", "revocation_endpoint", "introspection_endpoint", "end_session_endpoint", "pushed_authorization_request_endpoint"]) {
      expect(response.body[key], key).toMatch(new RegExp(`^${issuer}/api/auth/oauth2/`));
    }
    expect(response.body.code_challenge_methods_supported).toEqual(["S256"]);
    expect(response.body.response_types_supported).toEqual(["code"]);
    expect(response.body.scopes_supported).toEqual(expect.arrayContaining(["openid", "profile", "email", "offline_access"]));
    expect(response.body.id_token_signing_alg_values_supported).toEqual(expect.arrayContaining(["RS256", "ES256", "EdDSA"]));
    const jwks = await new ApiClient(server.baseUrl).get("/api/auth/oauth2/jwks");
    expect(jwks.body.keys.map((key: { alg: string }) => key.alg)).toEqual(expect.arrayContaining(["RS256", "ES256", "EdDSA"]));
    for (const key of jwks.body.keys) expect(key.d, "no private part published").toBeUndefined();
  });
});

describe("the code flow with PKCE", () => {
  it("signs a person in, asks consent, and gives a verified ID token, userinfo and the claims asked for", async () => {
    const app = await registerClient(server.database);
    const { config, someone, tokens, started } = await signedInFlow(app);
    const claims = tokens.claims()!;
    expect(claims.iss).toBe(server.baseUrl.replace(/\/$/, ""));
    expect(claims.aud).toBe(app.clientId);
    expect(claims.sub).toBe(someone.user.id);
    expect(claims.nonce).toBe(started.nonce);
    expect(claims.email).toBe(someone.email);
    expect(claims.name).toBe("Ada Lovelace");
    expect(claims.email_verified).toBe(false);
    expect(tokens.refresh_token, "no offline_access: no refresh token").toBeUndefined();
    // The ID token verifies against the published keys, with the default algorithm.
    const keys = jose.createRemoteJWKSet(new URL("/api/auth/oauth2/jwks", server.baseUrl));
    const verified = await jose.jwtVerify(tokens.id_token!, keys, { issuer: claims.iss, audience: app.clientId });
    expect(verified.protectedHeader.alg).toBe("RS256");
    const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
    expect(info).toMatchObject({ sub: someone.user.id, email: someone.email, name: "Ada Lovelace", email_verified: false });
  });

  it("remembers consent per person, application and scopes; asks again for a new scope", async () => {
    const app = await registerClient(server.database);
    const { config, someone } = await signedInFlow(app);
    // Same scopes: straight back to the application.
    const again = await authorizationRequest(config, app);
    const quiet = await browse(someone.browser, again.url.href);
    expect(quiet.callback?.searchParams.get("code")).toBeTruthy();
    // A scope not allowed yet: the consent page, naming it.
    const more = await authorizationRequest(config, app, { scope: "openid profile email offline_access", prompt: "consent" });
    const asked = await browse(someone.browser, more.url.href);
    expect(asked.response?.status).toBe(200);
    expect(asked.response?.text).toContain("Stay signed in");
  });

  it("a public client must use PKCE; a confidential one may use client_secret_post", async () => {
    const spa = await registerClient(server.database, { public: true });
    const config = await relyingParty(spa);
    const noPkce = await browse(new ApiClient(server.baseUrl), oidc.buildAuthorizationUrl(config, { redirect_uri: spa.redirectUri, scope: "openid" }).href);
    expect(noPkce.callback?.searchParams.get("error")).toBe("invalid_request");
    expect(noPkce.callback?.searchParams.get("error_description")).toMatch(/PKCE/);
    const { tokens } = await signedInFlow(spa);
    expect(tokens.id_token).toBeTruthy();

    const confidential = await registerClient(server.database);
    const viaPost = await relyingParty(confidential, server.baseUrl, "post");
    const someone = await person();
    const started = await authorizationRequest(viaPost, confidential);
    const callback = await authorize(someone.browser, started);
    const posted = await oidc.authorizationCodeGrant(viaPost, callback, { pkceCodeVerifier: started.verifier, expectedState: started.state, expectedNonce: started.nonce });
    expect(posted.access_token).toBeTruthy();
  });

  it("a trusted client skips the consent page", async () => {
    const app = await registerClient(server.database, { trusted: true, name: "Dashboard" });
    const config = await relyingParty(app);
    const someone = await person();
    const started = await authorizationRequest(config, app);
    const step = await browse(someone.browser, started.url.href);
    expect(step.callback?.searchParams.get("code"), step.response?.text.slice(0, 200)).toBeTruthy();
  });

  it("Deny returns access_denied to the application", async () => {
    const app = await registerClient(server.database);
    const config = await relyingParty(app);
    const someone = await person();
    const started = await authorizationRequest(config, app);
    const callback = await authorize(someone.browser, started, "deny");
    expect(callback.searchParams.get("error")).toBe("access_denied");
    expect(callback.searchParams.get("state")).toBe(started.state);
  });

  it("sends a signed-out person to /sign-in and back; prompt=none answers login_required", async () => {
    const app = await registerClient(server.database);
    const config = await relyingParty(app);
    const browser = new ApiClient(server.baseUrl);
    const started = await authorizationRequest(config, app, { login_hint: "ada@example.com" });
    const step = await browse(browser, started.url.href);
    expect(step.url?.pathname).toBe("/sign-in");
    expect(step.url?.searchParams.get("redirectTo")).toMatch(/^\/oauth2\/interaction\//);
    expect(step.url?.searchParams.get("email")).toBe("ada@example.com");

    const silent = await authorizationRequest(config, app, { prompt: "none" });
    const answered = await browse(browser, silent.url.href);
    expect(answered.callback?.searchParams.get("error")).toBe("login_required");
  });

  it("prompt=login and max_age=0 ask a signed-in person to sign in again", async () => {
    const app = await registerClient(server.database, { trusted: true });
    const config = await relyingParty(app);
    const someone = await person();
    for (const extra of [{ prompt: "login" }, { max_age: "0" }] as Record<string, string>[]) {
      const started = await authorizationRequest(config, app, extra);
      const step = await browse(someone.browser, started.url.href);
      expect(step.url?.pathname, JSON.stringify(extra)).toBe("/sign-in");
      expect(step.url?.searchParams.get("reauthenticate")).toBe("1");
    }
  });

  it("an interaction page opened in another browser is not answered there", async () => {
    const app = await registerClient(server.database);
    const config = await relyingParty(app);
    const owner = await person();
    const started = await authorizationRequest(config, app);
    const first = await browse(owner.browser, started.url.href);
    expect(first.url?.pathname).toMatch(/^\/oauth2\/interaction\//);
    const stranger = await person();
    const elsewhere = await stranger.browser.get(first.url!.pathname);
    expect(elsewhere.status).toBe(410);
    const posted = await stranger.browser.request("POST", first.url!.pathname, form({ intent: "allow" }));
    expect(posted.status).toBe(410);
  });

  it("a deleted account gets no code, and its tokens stop working", async () => {
    const app = await registerClient(server.database);
    const { config, someone, tokens } = await signedInFlow(app, { scope: "openid email offline_access", prompt: "consent" });
    expect(tokens.refresh_token).toBeTruthy();
    await query(server.database, `DELETE FROM "user" WHERE "id" = ?`, [someone.user.id]);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    await expect(oidc.fetchUserInfo(config, tokens.access_token, someone.user.id)).rejects.toBeTruthy();
  });
});

describe("refusals", () => {
  it("an authorization code works once; its second use revokes what the first issued", async () => {
    const app = await registerClient(server.database);
    const { config, started, callback, tokens } = await signedInFlow(app);
    await expect(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: started.verifier, expectedState: started.state, expectedNonce: started.nonce })).rejects.toMatchObject({
      error: "invalid_grant",
    });
    const introspected = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(introspected.active).toBe(false);
  });

  it("two racing exchanges of one code: exactly one gets tokens", async () => {
    const app = await registerClient(server.database);
    const config = await relyingParty(app);
    const someone = await person();
    const started = await authorizationRequest(config, app);
    const callback = await authorize(someone.browser, started);
    const code = callback.searchParams.get("code")!;
    const exchange = () =>
      fetch(new URL("/api/auth/oauth2/token", server.baseUrl), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}` },
        body: new URLSearchParams({ grant_type: "authorization_code", code, redirect_uri: app.redirectUri, code_verifier: started.verifier }),
      });
    const answers = await Promise.all(Array.from({ length: 4 }, exchange));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 400, 400, 400]);
  });

  it("wrong verifier, wrong secret, unknown client, mismatched redirect URI: the standard errors, never a 500", async () => {
    const app = await registerClient(server.database);
    const config = await relyingParty(app);
    const someone = await person();
    const token = (body: Record<string, string>, auth?: string) =>
      fetch(new URL("/api/auth/oauth2/token", server.baseUrl), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...(auth ? { authorization: auth } : {}) },
        body: new URLSearchParams(body),
      }).then(async (response) => ({ status: response.status, body: await response.json() }));
    const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`;

    const started = await authorizationRequest(config, app);
    const code = (await authorize(someone.browser, started)).searchParams.get("code")!;
    const exchange = { grant_type: "authorization_code", code, redirect_uri: app.redirectUri, code_verifier: started.verifier };
    expect(await token(exchange, basic(app.clientId, "wrong-secret"))).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect(await token(exchange, basic("no-such-client", "x"))).toMatchObject({ status: 401, body: { error: "invalid_client" } });
    expect(await token({ ...exchange, code_verifier: oidc.randomPKCECodeVerifier() }, basic(app.clientId, app.clientSecret!))).toMatchObject({ status: 400, body: { error: "invalid_grant" } });

    const second = await authorizationRequest(config, app);
    const code2 = (await authorize(someone.browser, second)).searchParams.get("code")!;
    expect(await token({ ...exchange, code: code2, code_verifier: second.verifier, redirect_uri: `${app.redirectUri}/other` }, basic(app.clientId, app.clientSecret!))).toMatchObject({
      status: 400,
      body: { error: "invalid_grant" },
    });

    // At the authorization endpoint: an unregistered redirect URI is never redirected to.
    const wrongRedirect = await new ApiClient(server.baseUrl).get(
      `/api/auth/oauth2/authorize?${new URLSearchParams({ client_id: app.clientId, redirect_uri: "https://evil.example/cb", response_type: "code", scope: "openid" })}`,
    );
    expect(wrongRedirect.status).toBe(400);
    expect(wrongRedirect.headers.get("location")).toBeNull();
    expect(wrongRedirect.text).toContain("invalid_redirect_uri");
    const unknown = await new ApiClient(server.baseUrl).get(`/api/auth/oauth2/authorize?client_id=nobody&redirect_uri=https://a.example/cb&response_type=code&scope=openid`);
    expect(unknown.status).toBe(400);
    expect(unknown.text).toContain("invalid_client");
  });

  it("an expired code is refused", async () => {
    const app = await registerClient(server.database);
    const config = await relyingParty(app);
    const someone = await person();
    const started = await authorizationRequest(config, app);
    const callback = await authorize(someone.browser, started);
    // Expiry is the stored row's: moved into the past rather than waited for.
    await query(server.database, `UPDATE "oidcModel" SET "expiresAt" = ? WHERE "model" = 'AuthorizationCode'`, [server.database.kind === "sqlite" ? Date.now() - 1000 : new Date(Date.now() - 1000)]);
    await expect(oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: started.verifier, expectedState: started.state, expectedNonce: started.nonce })).rejects.toMatchObject({
      error: "invalid_grant",
    });
  });

  it("codes live 60 seconds or less", async () => {
    const app = await registerClient(server.database);
    const config = await relyingParty(app);
    const someone = await person();
    const started = await authorizationRequest(config, app);
    await authorize(someone.browser, started);
    const [row] = await query<{ payload: string }>(server.database, `SELECT "payload" FROM "oidcModel" WHERE "model" = 'AuthorizationCode' ORDER BY "createdAt" DESC LIMIT 1`);
    const payload = JSON.parse(row!.payload);
    expect(payload.exp - payload.iat).toBeLessThanOrEqual(60);
  });

  it("hostile input to every endpoint is answered with a 4xx, never a 500", async () => {
    const browser = new ApiClient(server.baseUrl);
    const paths = ["authorize", "token", "userinfo", "jwks", "revoke", "introspect", "end-session", "nothing-here"].map((name) => `/api/auth/oauth2/${name}`);
    const junk = ["%", "a=%ZZ", "client_id[]=1&client_id[]=2", "client_id=x&client_id=y", `scope=${"x".repeat(5000)}`, "redirect_uri=javascript:alert(1)&client_id=x&response_type=code"];
    for (const path of paths) {
      for (const query of junk) {
        for (const method of ["GET", "POST"]) {
          const response = await fetch(new URL(`${path}?${query}`, server.baseUrl), {
            method,
            headers: method === "POST" ? { "content-type": "application/x-www-form-urlencoded", authorization: "Basic %%%" } : { authorization: "Bearer \u00ff" },
            body: method === "POST" ? query : undefined,
          });
          expect(response.status, `${method} ${path}?${query.slice(0, 40)}`).toBeLessThan(500);
        }
      }
    }
    const json = await browser.request("POST", "/api/auth/oauth2/token", { rawBody: "{not json", headers: { "content-type": "application/json" } });
    expect(json.status).toBeLessThan(500);
  });
});

describe("refresh tokens, revocation, introspection", () => {
  it("offline_access with prompt=consent gives a refresh token that rotates; a reused one revokes the family", async () => {
    const app = await registerClient(server.database);
    const { config, tokens } = await signedInFlow(app, { scope: "openid email offline_access", prompt: "consent" });
    const first = tokens.refresh_token!;
    const rotated = await oidc.refreshTokenGrant(config, first);
    expect(rotated.refresh_token).toBeTruthy();
    expect(rotated.refresh_token).not.toBe(first);
    // The old one again: refused, and the rotated one dies with it.
    await expect(oidc.refreshTokenGrant(config, first)).rejects.toMatchObject({ error: "invalid_grant" });
    await expect(oidc.refreshTokenGrant(config, rotated.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    expect((await oidc.tokenIntrospection(config, rotated.access_token)).active).toBe(false);
  });

  it("introspection describes a live token; revocation (RFC 7009) ends it", async () => {
    const app = await registerClient(server.database);
    const { config, tokens, someone } = await signedInFlow(app, { scope: "openid email offline_access", prompt: "consent" });
    const live = await oidc.tokenIntrospection(config, tokens.access_token);
    expect(live).toMatchObject({ active: true, client_id: app.clientId, sub: someone.user.id });
    await oidc.tokenRevocation(config, tokens.refresh_token!);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    await oidc.tokenRevocation(config, tokens.access_token);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    // Another client may not look at this one's tokens.
    const other = await registerClient(server.database);
    const otherConfig = await relyingParty(other);
    const second = await signedInFlow(app);
    expect((await oidc.tokenIntrospection(otherConfig, second.tokens.access_token)).active).toBe(false);
  });

  it("Revoke access on /account/applications ends the application's tokens and forgets the consent", async () => {
    const app = await registerClient(server.database, { name: "Revocable App" });
    const { config, tokens, someone } = await signedInFlow(app, { scope: "openid email offline_access", prompt: "consent" });
    const page = await someone.browser.get("/account/applications");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Revocable App");
    const revoked = await someone.browser.request("POST", "/account/applications", form({ intent: "revoke-application", clientId: app.clientId, name: "Revocable App" }));
    expect(revoked.status).toBe(302);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    expect(await count(server.database, "oidcConsent", `"userId" = ?`, [someone.user.id])).toBe(0);
    expect((await someone.browser.get("/account/applications")).text).not.toContain('data-testid="application-row"');
    // The next request asks again.
    const again = await authorizationRequest(config, app);
    const asked = await browse(someone.browser, again.url.href);
    expect(asked.response?.status).toBe(200);
  });
});

describe("RP-initiated logout", () => {
  it("asks, signs the browser out of Latchkey, and returns to the registered post-logout URI with the state", async () => {
    const app = await registerClient(server.database);
    const { config, tokens, someone } = await signedInFlow(app);
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: app.postLogoutRedirectUri, state: "bye" });
    const question = await someone.browser.get(url.pathname + url.search);
    expect(question.status).toBe(200);
    expect(question.text).toContain("Sign out of Latchkey?");
    const xsrf = /name="xsrf" value="([^"]+)"/.exec(question.text)![1]!;
    const action = /action="([^"]+)"/.exec(question.text)![1]!;
    const confirmed = await someone.browser.request("POST", new URL(action, server.baseUrl).pathname, form({ xsrf, logout: "yes" }));
    expect(confirmed.status).toBe(303);
    const back = new URL(confirmed.headers.get("location")!);
    expect(back.origin + back.pathname).toBe(app.postLogoutRedirectUri);
    expect(back.searchParams.get("state")).toBe("bye");
    expect((await someone.browser.get("/api/auth/get-session")).body).toBeNull();
  });

  it("an unregistered post_logout_redirect_uri is refused", async () => {
    const app = await registerClient(server.database);
    const { config, tokens, someone } = await signedInFlow(app);
    const url = oidc.buildEndSessionUrl(config, { id_token_hint: tokens.id_token!, post_logout_redirect_uri: "https://evil.example/out" });
    const answer = await someone.browser.get(url.pathname + url.search);
    expect(answer.status).toBe(400);
    expect(answer.headers.get("location")).toBeNull();
  });
});

describe("keys", () => {
  it("a rotation keeps tokens signed before it verifying; a second instance on the same database shares the keys", async () => {
    const app = await registerClient(server.database);
    const { tokens } = await signedInFlow(app);
    const issuer = server.baseUrl.replace(/\/$/, "");
    const oldKid = jose.decodeProtectedHeader(tokens.id_token!).kid;

    const rotated = await promisify(execFile)(process.execPath, ["scripts/oidc.mjs", "rotate-keys"], {
      env: { PATH: process.env.PATH, AUTH_SECRET: TEST_SECRET, DATABASE_URL: server.database.url, BASE_URL: server.baseUrl, NODE_ENV: "production" },
    });
    expect(rotated.stdout).toContain("New signing keys");

    const second = await startServer({ database: server.database });
    try {
      for (const base of [server.baseUrl, second.baseUrl]) {
        const keys = jose.createRemoteJWKSet(new URL("/api/auth/oauth2/jwks", base));
        // Signed before the rotation: still verifies on both instances' key sets.
        await jose.jwtVerify(tokens.id_token!, keys, { issuer, audience: app.clientId });
      }
      // After it, both sign with the new key, and each one's tokens verify on the other's key set.
      const fresh = await signedInFlow(app);
      const newKid = jose.decodeProtectedHeader(fresh.tokens.id_token!).kid;
      expect(newKid).not.toBe(oldKid);
      const secondJwks = await (await fetch(new URL("/api/auth/oauth2/jwks", second.baseUrl))).json();
      const firstJwks = await (await fetch(new URL("/api/auth/oauth2/jwks", server.baseUrl))).json();
      expect(secondJwks).toEqual(firstJwks);
      await jose.jwtVerify(fresh.tokens.id_token!, jose.createLocalJWKSet(secondJwks), { audience: app.clientId });
    } finally {
      await second.stop();
    }
  });

  it("private keys are stored encrypted", async () => {
    const rows = await query<{ privateJwk: string; publicJwk: string }>(server.database, `SELECT "privateJwk", "publicJwk" FROM "oidcSigningKey"`);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    for (const row of rows) {
      expect(row.privateJwk).not.toContain('"d"');
      expect(JSON.parse(row.publicJwk).d).toBeUndefined();
    }
  });
});

// The command's words, output and exit codes, once: each run boots the built app (a second or more of CPU), and what
// it stores is the same Prisma code the rest of this file drives on both databases.
describe.runIf(databaseKindUnderTest() === "sqlite")("operators' commands", () => {
  it("add-client prints the id and the secret once, stores the hash; the client works at once; list and remove", async () => {
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, ["scripts/oidc.mjs", ...args], {
        env: { PATH: process.env.PATH, AUTH_SECRET: TEST_SECRET, DATABASE_URL: server.database.url, BASE_URL: server.baseUrl, NODE_ENV: "production" },
      });
    const added = await run(
      "add-client", "--name", "CLI App", "--redirect-uri", "https://cli.example.com/cb", "--post-logout-redirect-uri", "https://cli.example.com/bye", "--homepage", "https://cli.example.com",
    );
    const clientId = /client_id:\s+(\S+)/.exec(added.stdout)![1]!;
    const clientSecret = /client_secret:\s+(\S+)/.exec(added.stdout)![1]!;
    const [stored] = await query<{ secretHash: string; homepageUrl: string }>(server.database, `SELECT "secretHash", "homepageUrl" FROM "oidcClient" WHERE "id" = ?`, [clientId]);
    expect(stored!.secretHash).not.toContain(clientSecret);
    expect(stored!.homepageUrl).toBe("https://cli.example.com/");
    // Registered while the server runs: usable at once.
    const app = { clientId, clientSecret, redirectUri: "https://cli.example.com/cb", postLogoutRedirectUri: "https://cli.example.com/bye" };
    const { tokens, someone } = await signedInFlow(app);
    expect(tokens.access_token).toBeTruthy();
    expect((await run("list-clients")).stdout).toContain(`${clientId}  CLI App  (confidential)`);
    await expect(run("add-client", "--name", "Bad", "--redirect-uri", "http://not-local.example/cb")).rejects.toMatchObject({ code: 2 });
    await expect(run("add-client", "--name", "Bad Site", "--redirect-uri", "https://ok.example/cb", "--homepage", "javascript:alert(1)")).rejects.toMatchObject({ code: 2 });
    expect((await run("remove-client", clientId)).stdout).toContain("Removed");
    const gone = await eventually(
      () => new ApiClient(server.baseUrl).get(`/api/auth/oauth2/authorize?client_id=${clientId}&redirect_uri=${encodeURIComponent(app.redirectUri)}&response_type=code&scope=openid`),
      (response) => response.status === 400,
    );
    expect(gone.text).toContain("invalid_client");
    // The person who had allowed it is told, with the removal's own words; nothing of the application is left.
    const [removal] = await query<{ details: string }>(
      server.database,
      `SELECT "details" FROM "securityEvent" WHERE "userId" = ? AND "type" = 'application_revoked'`,
      [someone.user.id],
    );
    expect(JSON.parse(removal!.details)).toEqual({ application: "CLI App", clientId, applicationRemoved: true });
    expect((await someone.browser.get("/account/activity")).text).toContain("ended: the application was removed from this site");
    expect(await query(server.database, `SELECT 1 FROM "oidcConsent" WHERE "clientId" = ?`, [clientId])).toEqual([]);
  });
});

describe("GET /api/auth/token and /api/auth/jwks", () => {
  it("gives the signed-in session a short-lived JWT that verifies against /jwks; signed out, a 401", async () => {
    const someone = await person();
    const response = await someone.browser.get("/api/auth/token");
    expect(response.status).toBe(200);
    const keys = jose.createRemoteJWKSet(new URL("/api/auth/jwks", server.baseUrl));
    const origin = new URL(server.baseUrl).origin;
    const { payload, protectedHeader } = await jose.jwtVerify(response.body.token, keys, { issuer: origin, audience: origin });
    expect(protectedHeader.alg).toBe("EdDSA");
    expect(payload).toMatchObject({ sub: someone.user.id, id: someone.user.id, email: someone.email, name: "Ada Lovelace" });
    expect(payload.exp! - payload.iat!).toBe(15 * 60);
    expect((await new ApiClient(server.baseUrl).get("/api/auth/token")).status).toBe(401);
  });

  it("Better Auth's jwtClient() reads /token and /jwks, and the token verifies with jose", async () => {
    const { customFetchImpl } = browserFetch(server);
    const client = createAuthClient({ baseURL: server.baseUrl, fetchOptions: { customFetchImpl }, plugins: [jwtClient()] });
    const email = uniqueEmail("jwt");
    expect((await client.signUp.email({ name: "Jay Walker", email, password: PASSWORD })).error).toBeNull();
    const token = await client.token();
    expect(token.error).toBeNull();
    const jwks = await client.jwks();
    expect(jwks.error).toBeNull();
    const origin = new URL(server.baseUrl).origin;
    const { payload } = await jose.jwtVerify(token.data!.token, jose.createLocalJWKSet(jwks.data!), { issuer: origin, audience: origin });
    expect(payload).toMatchObject({ email, name: "Jay Walker" });
  });
});

describe("with the event log, bans and impersonation (issues 29, 30)", () => {
  interface StoredEvent {
    type: string;
    details: Record<string, unknown>;
    ipAddress: string | null;
  }
  async function eventsOf(userId: string): Promise<StoredEvent[]> {
    const rows = await query<{ type: string; details: string; ipAddress: string | null }>(
      server.database,
      `SELECT "type", "details", "ipAddress" FROM "securityEvent" WHERE "userId" = ? ORDER BY "createdAt", "id"`,
      [userId],
    );
    return rows.map((row) => ({ type: row.type, details: JSON.parse(row.details), ipAddress: row.ipAddress }));
  }
  const ofType = (events: StoredEvent[], type: string) => events.filter((event) => event.type === type);

  /** An admin's browser: the role set in the database, then a fresh sign-in so the session reads it. */
  async function admin() {
    const first = await person();
    await query(server.database, `UPDATE "user" SET "role" = 'admin' WHERE "id" = ?`, [first.user.id]);
    const browser = new ApiClient(server.baseUrl);
    const signedIn = await browser.post("/api/auth/sign-in/email", { email: first.email, password: PASSWORD });
    expect(signedIn.status, signedIn.text).toBe(200);
    return { browser, id: first.user.id };
  }

  it("consent given, the first tokens and Revoke access are security events of the person, in words on the activity page", async () => {
    const app = await registerClient(server.database, { name: "Events App" });
    const { config, someone } = await signedInFlow(app, { scope: "openid email offline_access", prompt: "consent" });
    const events = await eventually(() => eventsOf(someone.user.id), (found) => ofType(found, "application_tokens_issued").length === 1);
    const [authorized] = ofType(events, "application_authorized");
    // offline_access is lasting access, a new way in whose event mails the owner (ADR 055).
    expect(authorized.details).toEqual({ application: "Events App", clientId: app.clientId, scopes: "openid email offline_access", trusted: false, lastingAccess: true });
    expect(authorized.ipAddress, "the person's request, not the application's").toBeTruthy();
    expect(ofType(events, "application_tokens_issued")).toEqual([expect.objectContaining({ details: { application: "Events App", clientId: app.clientId } })]);
    for (const event of events) expect(JSON.stringify(event.details)).not.toMatch(/token"|secret|code"/i);

    // The same application again (consent remembered): no new "first tokens".
    const again = await authorizationRequest(config, app);
    const callback = await authorize(someone.browser, again);
    await oidc.authorizationCodeGrant(config, callback, { pkceCodeVerifier: again.verifier, expectedState: again.state, expectedNonce: again.nonce });
    expect(ofType(await eventsOf(someone.user.id), "application_tokens_issued")).toHaveLength(1);

    const revoked = await someone.browser.request("POST", "/account/applications", form({ intent: "revoke-application", clientId: app.clientId, name: "Events App" }));
    expect(revoked.status).toBe(302);
    expect(ofType(await eventsOf(someone.user.id), "application_revoked")).toEqual([expect.objectContaining({ details: { application: "Events App", clientId: app.clientId } })]);
    // Revoking what is already revoked changes nothing and records nothing.
    await someone.browser.request("POST", "/account/applications", form({ intent: "revoke-application", clientId: app.clientId }));
    expect(ofType(await eventsOf(someone.user.id), "application_revoked")).toHaveLength(1);

    const listed = await someone.browser.get("/api/auth/list-security-events");
    expect(listed.body.events.map((event: { type: string }) => event.type)).toEqual(
      expect.arrayContaining(["application_authorized", "application_tokens_issued", "application_revoked"]),
    );
    // Read as shown: the application's name is isolated in <bdi> inside its sentence.
    const activity = shownText((await someone.browser.get("/account/activity")).text);
    expect(activity).toContain("Access given to “Events App”");
    expect(activity).toContain("Signed in to “Events App” for the first time");
    expect(activity).toContain("Access for “Events App” revoked");
  });

  it("a trusted application's automatic grant is recorded as such", async () => {
    const app = await registerClient(server.database, { name: "Staff Portal", trusted: true });
    const { someone } = await signedInFlow(app);
    const [authorized] = ofType(await eventsOf(someone.user.id), "application_authorized");
    expect(authorized.details).toMatchObject({ application: "Staff Portal", trusted: true });
  });

  it("a banned person gets no code, and a refresh token of someone banned since is refused", async () => {
    const app = await registerClient(server.database);
    const { config, someone, tokens } = await signedInFlow(app, { scope: "openid email offline_access", prompt: "consent" });
    // Banned in the database only (the session and the provider's tokens left in place): the check alone refuses.
    await query(server.database, `UPDATE "user" SET "banned" = (1=1) WHERE "id" = ?`, [someone.user.id]);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    const started = await authorizationRequest(config, app);
    const step = await browse(someone.browser, started.url.href);
    expect(step.callback?.searchParams.get("code") ?? null, "no code").toBeNull();
    if (step.callback) expect(step.callback.searchParams.get("error")).toBe("access_denied");
    // A ban that has ended counts as none.
    await query(server.database, `UPDATE "user" SET "banExpires" = ? WHERE "id" = ?`, [server.database.kind === "sqlite" ? Date.now() - 1000 : new Date(Date.now() - 1000), someone.user.id]);
    const later = await authorizationRequest(config, app);
    const signedIn = new ApiClient(server.baseUrl);
    expect((await signedIn.post("/api/auth/sign-in/email", { email: someone.email, password: PASSWORD })).status).toBe(200);
    expect((await authorize(signedIn, later)).searchParams.get("code")).toBeTruthy();
  });

  it("a ban through the admin API ends what applications hold for the person at once", async () => {
    const app = await registerClient(server.database);
    const { config, someone, tokens } = await signedInFlow(app, { scope: "openid email offline_access", prompt: "consent" });
    const { browser } = await admin();
    const banned = await browser.post("/api/auth/admin/ban-user", { userId: someone.user.id, banReason: "testing" });
    expect(banned.status, banned.text).toBe(200);
    expect(await count(server.database, "oidcModel", `"accountId" = ?`, [someone.user.id])).toBe(0);
    expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
    await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
    // The person's choice is kept: after an unban the application signs them in without asking again.
    expect(await count(server.database, "oidcConsent", `"userId" = ?`, [someone.user.id])).toBe(1);
  });

  it("an admin acting as someone cannot let an application in as them", async () => {
    const app = await registerClient(server.database, { name: "Consent Target" });
    const config = await relyingParty(app);
    const target = await person();
    const { browser } = await admin();
    const impersonating = await browser.post("/api/auth/admin/impersonate-user", { userId: target.user.id });
    expect(impersonating.status, impersonating.text).toBe(200);
    const started = await authorizationRequest(config, app);
    const step = await browse(browser, started.url.href);
    expect(step.callback, "no answer goes back to the application").toBeNull();
    expect(step.response!.status).toBe(403);
    expect(step.url!.pathname).toMatch(/^\/oauth2\/interaction\//);
    expect(step.response!.text).toContain("can&#x27;t sign in to applications as someone else");
    const posted = await browser.request("POST", step.url!.pathname, form({ intent: "allow" }));
    expect(posted.status).toBe(403);
    expect(posted.headers.get("location")).toBeNull();
    expect(await count(server.database, "oidcConsent", `"userId" = ?`, [target.user.id])).toBe(0);
    expect(ofType(await eventsOf(target.user.id), "application_authorized")).toEqual([]);
    // prompt=none does not slip past either.
    const silent = await authorizationRequest(config, app, { prompt: "none" });
    const answer = await browse(browser, silent.url.href);
    expect(answer.callback?.searchParams.get("code") ?? null).toBeNull();
  });
});
