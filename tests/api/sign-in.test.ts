// POST /api/auth/sign-in/email and the cookies a sign-in sets.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { COOKIE, SECURE_COOKIE, clears, expectLifetime, expectMaxAgeEndingAt, sessionEndsAt, setCookie, timed } from "../support/cookies";
import { sharedServer, type TestServer } from "../support/server";
import { query } from "../support/sql";

const SIGN_IN = "/api/auth/sign-in/email";
const SECURE_BASE_URL = "https://auth.example.test";
const MAX_COOKIE_AGE = 34_560_000; // 400 days, spec §9
const SESSION_LIFETIME_S = 604_800; // AUTH_SESSION_EXPIRES_IN's default, seven days

let server: TestServer;
/** BASE_URL is https: cookies get the __Secure- prefix and the Secure attribute. */
let secure: TestServer;
let email: string;
let userId: string;
beforeAll(async () => {
  [server, secure] = await Promise.all([sharedServer(), sharedServer({ env: { BASE_URL: SECURE_BASE_URL } })]);
  const account = await signUp(new ApiClient(server.baseUrl), { name: "Sign In" });
  email = account.email;
  userId = account.user.id;
});
afterAll(async () => {
  await Promise.all([server?.stop(), secure?.stop()]);
});

describe("successful sign-in", () => {
  it("returns {redirect: false, token, user} without a url when there is no callbackURL", async () => {
    const client = new ApiClient(server.baseUrl);
    const response = await client.post(SIGN_IN, { email, password: PASSWORD });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["redirect", "token", "user"]);
    expect(response.body.redirect).toBe(false);
    expect(response.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(response.body.user).toMatchObject({ id: userId, email, name: "Sign In", emailVerified: false, image: null });
    for (const field of ["id", "email", "name", "image", "emailVerified", "createdAt", "updatedAt"]) {
      expect(response.body.user).toHaveProperty(field);
    }
    const session = await client.get("/api/auth/get-session");
    expect(session.body.session.token).toBe(response.body.token);
    expect(session.body.user.id).toBe(userId);
  });

  it("echoes a callbackURL as url with redirect: true", async () => {
    const relative = await new ApiClient(server.baseUrl).post(SIGN_IN, { email, password: PASSWORD, callbackURL: "/dashboard?tab=1" });
    expect(relative.status).toBe(200);
    expect(relative.body).toMatchObject({ redirect: true, url: "/dashboard?tab=1" });
    const absolute = await new ApiClient(server.baseUrl).post(SIGN_IN, { email, password: PASSWORD, callbackURL: `${server.baseUrl}/home` });
    expect(absolute.status).toBe(200);
    expect(absolute.body).toMatchObject({ redirect: true, url: `${server.baseUrl}/home` });
  });

  it("accepts the address in any casing", async () => {
    const response = await new ApiClient(server.baseUrl).post(SIGN_IN, { email: email.toUpperCase(), password: PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body.user.id).toBe(userId);
  });

  it("creates one session per sign-in", async () => {
    const a = await new ApiClient(server.baseUrl).post(SIGN_IN, { email, password: PASSWORD });
    const b = await new ApiClient(server.baseUrl).post(SIGN_IN, { email, password: PASSWORD });
    expect(a.body.token).not.toBe(b.body.token);
  });
});

describe("failures", () => {
  it("answers 400 INVALID_EMAIL for a malformed address", async () => {
    const response = await new ApiClient(server.baseUrl).post(SIGN_IN, { email: "nobody-at-example.com", password: PASSWORD });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
  });

  it("answers the same 401 INVALID_EMAIL_OR_PASSWORD for an unknown user and for a wrong password", async () => {
    const unknown = await new ApiClient(server.baseUrl).post(SIGN_IN, { email: uniqueEmail("ghost"), password: PASSWORD });
    const wrong = await new ApiClient(server.baseUrl).post(SIGN_IN, { email, password: `${PASSWORD}!` });
    const empty = await new ApiClient(server.baseUrl).post(SIGN_IN, { email, password: "" });
    for (const response of [unknown, wrong, empty]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
      expect(response.setCookies).toEqual([]);
    }
    expect(unknown.text).toBe(wrong.text);
  });

  it("answers the same 401 for a user without a password (no credential account)", async () => {
    const passwordless = await signUp(new ApiClient(server.baseUrl));
    await query(server.database, `DELETE FROM "account" WHERE "userId" = ?`, [passwordless.user.id]);
    const response = await new ApiClient(server.baseUrl).post(SIGN_IN, { email: passwordless.email, password: PASSWORD });
    expect(response.status).toBe(401);
    expect(response.body).toEqual({ code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password" });
  });

  it("answers 400 {code, message} for missing fields, wrong types and bad JSON", async () => {
    const bodies: unknown[] = [{}, { email }, { password: PASSWORD }, { email, password: 12345678 }, { email: [email], password: PASSWORD }, { email, password: PASSWORD, rememberMe: "false" }];
    for (const body of bodies) {
      const response = await new ApiClient(server.baseUrl).post(SIGN_IN, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code, JSON.stringify(body)).toBe("VALIDATION_ERROR");
      expect(response.body.message).toMatch(/\[body\./);
    }
    const bad = await new ApiClient(server.baseUrl).request("POST", SIGN_IN, { rawBody: "{", headers: { "content-type": "application/json" } });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_JSON");
  });
});

describe("remember me", () => {
  // Max-Age is compared with the session's end as the server computed it from its own clock, never with 604800: a
  // sign-in that spends over half a second between the two answers 604799 (tests/support/cookies.ts).
  it("by default sets a persistent session cookie with Max-Age = the session lifetime (604800 s)", async () => {
    const client = new ApiClient(server.baseUrl);
    const { response, ...span } = await timed(() => client.post(SIGN_IN, { email, password: PASSWORD }));
    const cookie = setCookie(response, COOKIE.sessionToken)!;
    expect(cookie).toBeDefined();
    const expiresAt = await sessionEndsAt(client);
    expectLifetime(expiresAt, SESSION_LIFETIME_S, span);
    expectMaxAgeEndingAt(cookie, expiresAt, span);
    expect(Number(cookie.attributes["max-age"])).toBeLessThanOrEqual(MAX_COOKIE_AGE);
    expect(setCookie(response, COOKIE.dontRemember)).toBeUndefined();
  });

  it("with rememberMe: true behaves like the default", async () => {
    const client = new ApiClient(server.baseUrl);
    const { response, ...span } = await timed(() => client.post(SIGN_IN, { email, password: PASSWORD, rememberMe: true }));
    const expiresAt = await sessionEndsAt(client);
    expectLifetime(expiresAt, SESSION_LIFETIME_S, span);
    expectMaxAgeEndingAt(setCookie(response, COOKIE.sessionToken), expiresAt, span);
    expect(setCookie(response, COOKIE.dontRemember)).toBeUndefined();
  });

  it("with rememberMe: false sets a browser-session cookie (no Max-Age, no Expires) and a dont_remember cookie", async () => {
    const client = new ApiClient(server.baseUrl);
    const { response, ...span } = await timed(() => client.post(SIGN_IN, { email, password: PASSWORD, rememberMe: false }));
    expect(response.status).toBe(200);
    const cookie = setCookie(response, COOKIE.sessionToken)!;
    expect(cookie).toBeDefined();
    expect(cookie.attributes).not.toHaveProperty("max-age");
    expect(cookie.attributes).not.toHaveProperty("expires");
    const flag = setCookie(response, COOKIE.dontRemember)!;
    expect(flag, response.setCookies.join("\n")).toBeDefined();
    expect(flag.value).not.toBe("");
    expect(flag.attributes).not.toHaveProperty("max-age");
    expect(flag.attributes.httponly).toBe(true);

    // A session nobody asked to remember lives one day (the default lifetime is longer), from the sign-in on.
    const session = await client.get("/api/auth/get-session");
    expect(session.body.session.token).toBe(response.body.token);
    expectLifetime(new Date(session.body.session.expiresAt).getTime(), 24 * 3600, span);
  });

  it("forgets an earlier rememberMe: false when the same browser signs in again with Remember me", async () => {
    const client = new ApiClient(server.baseUrl);
    await client.post(SIGN_IN, { email, password: PASSWORD, rememberMe: false });
    expect(client.cookies.has(COOKIE.dontRemember)).toBe(true);
    const { response, ...span } = await timed(() => client.post(SIGN_IN, { email, password: PASSWORD }));
    expect(response.status).toBe(200);
    const expiresAt = await sessionEndsAt(client);
    expectLifetime(expiresAt, SESSION_LIFETIME_S, span);
    expectMaxAgeEndingAt(setCookie(response, COOKIE.sessionToken), expiresAt, span);
    // Otherwise the stale flag would keep the new, remembered session from ever being extended.
    expect(clears(response, COOKIE.dontRemember), response.setCookies.join("\n")).toBe(true);
    expect(client.cookies.has(COOKIE.dontRemember)).toBe(false);
  });

  it("applies rememberMe to sign-up too", async () => {
    const response = await new ApiClient(server.baseUrl).post("/api/auth/sign-up/email", {
      name: "Forgetful",
      email: uniqueEmail("forget"),
      password: PASSWORD,
      rememberMe: false,
    });
    expect(response.status).toBe(200);
    expect(setCookie(response, COOKIE.sessionToken)!.attributes).not.toHaveProperty("max-age");
    expect(setCookie(response, COOKIE.dontRemember)).toBeDefined();
  });
});

describe("cookie attributes", () => {
  it("marks the session cookie HttpOnly, SameSite=Lax, Path=/ and not Secure on an http base URL", async () => {
    const response = await new ApiClient(server.baseUrl).post(SIGN_IN, { email, password: PASSWORD });
    const cookie = setCookie(response, COOKIE.sessionToken)!;
    expect(cookie.attributes.httponly).toBe(true);
    expect(String(cookie.attributes.samesite).toLowerCase()).toBe("lax");
    expect(cookie.attributes.path).toBe("/");
    expect(cookie.attributes).not.toHaveProperty("secure");
    expect(cookie.attributes).not.toHaveProperty("domain");
    expect(response.setCookies.some((line) => line.startsWith("__Secure-"))).toBe(false);
  });

  it("uses the __Secure- prefix and the Secure attribute when BASE_URL is https", async () => {
    // Reached over plain http on localhost: only the names and attributes it sets are under test.
    const client = new ApiClient(secure.baseUrl, SECURE_BASE_URL);
    const account = await signUp(client);
    const cookie = setCookie(account.response, SECURE_COOKIE.sessionToken)!;
    expect(cookie, account.response.setCookies.join("\n")).toBeDefined();
    expect(cookie.attributes.secure).toBe(true);
    expect(cookie.attributes.httponly).toBe(true);
    expect(String(cookie.attributes.samesite).toLowerCase()).toBe("lax");
    expect(cookie.attributes.path).toBe("/");
    expect(setCookie(account.response, COOKIE.sessionToken)).toBeUndefined();

    const remembered = await client.post(SIGN_IN, { email: account.email, password: PASSWORD, rememberMe: false });
    expect(setCookie(remembered, SECURE_COOKIE.dontRemember)?.attributes.secure).toBe(true);

    const session = await client.get("/api/auth/get-session");
    expect(session.body.user.id).toBe(account.user.id);

    // Clearing a __Secure- cookie only works with Secure set, so sign-out must send it.
    const signOut = await client.post("/api/auth/sign-out");
    expect(signOut.status).toBe(200);
    expect(clears(signOut, SECURE_COOKIE.sessionToken)).toBe(true);
    for (const line of signOut.setCookies) expect(line).toMatch(/;\s*Secure/i);
  });
});
