// Usernames (issue 11): sign-up with a username, POST /sign-in/username, /is-username-available and
// /update-user {username}; the rules, uniqueness (also when two sign-ups race) and no account enumeration.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { COOKIE, setCookie } from "../support/cookies";
import { sharedServer, type TestServer } from "../support/server";
import { enableTwoFactor, TWO_FACTOR_REDIRECT } from "../support/two-factor";

let server: TestServer;
beforeAll(async () => {
  server = await sharedServer({ env: { AUTH_EMAIL_VERIFICATION: "off" }, mail: true });
});
afterAll(async () => {
  await server?.stop();
});

let n = 0;
const uniqueUsername = (prefix = "User") => `${prefix}_${Date.now().toString(36)}.${++n}`;
const client = () => new ApiClient(server.baseUrl);

async function withUsername(typed = uniqueUsername()) {
  const c = client();
  const created = await signUp(c, { username: typed } as never);
  return { ...created, client: c, typed };
}

describe("sign-up with a username", () => {
  it("stores the username lowercased and keeps the typed form as displayUsername", async () => {
    const typed = uniqueUsername("Mixed.Case");
    const { response, client: c } = await withUsername(typed);
    expect(response.body.user.username).toBe(typed.toLowerCase());
    expect(response.body.user.displayUsername).toBe(typed);
    expect((await c.get("/api/auth/get-session")).body.user.username).toBe(typed.toLowerCase());
  });

  it("refuses a taken username in any case: 'username is already taken. please try another.'", async () => {
    const { typed } = await withUsername();
    const response = await client().post("/api/auth/sign-up/email", { name: "X", email: uniqueEmail(), password: PASSWORD, username: typed.toUpperCase() });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: "USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER", message: "username is already taken. please try another." });
  });

  it.each([
    ["ab", "USERNAME_IS_TOO_SHORT"],
    ["a".repeat(31), "USERNAME_IS_TOO_LONG"],
    ["has space", "USERNAME_IS_INVALID"],
    ["dash-ed", "USERNAME_IS_INVALID"],
    ["émile", "USERNAME_IS_INVALID"],
  ])("refuses %j with 400 %s and creates nothing", async (username, code) => {
    const email = uniqueEmail();
    const response = await client().post("/api/auth/sign-up/email", { name: "X", email, password: PASSWORD, username });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe(code);
    expect((await client().post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(401);
  });

  it("accepts exactly 3 and 30 characters of letters, digits, _ and .", async () => {
    // Each test file has a database of its own, so these short names are free.
    for (const username of ["a.1", "Z_9", uniqueUsername("x").padEnd(30, "_").slice(0, 30)]) {
      const response = await client().post("/api/auth/sign-up/email", { name: "X", email: uniqueEmail(), password: PASSWORD, username });
      expect(response.status).toBe(200);
      expect(response.body.user.username).toBe(username.toLowerCase());
    }
  });

  it("two sign-ups taking one username at once: exactly one wins", async () => {
    const username = uniqueUsername("race");
    const results = await Promise.all(
      [0, 1, 2].map(() => client().post("/api/auth/sign-up/email", { name: "R", email: uniqueEmail(), password: PASSWORD, username })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 422, 422]);
    for (const loser of results.filter((r) => r.status === 422)) expect(loser.body.code).toBe("USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER");
  });
});

describe("POST /sign-in/username", () => {
  it("answers like /sign-in/email, whatever case the username is typed in", async () => {
    const { typed, email, user } = await withUsername();
    const c = client();
    const response = await c.post("/api/auth/sign-in/username", { username: typed.toUpperCase(), password: PASSWORD, callbackURL: "/account" });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["redirect", "token", "url", "user"]);
    expect(response.body).toMatchObject({ redirect: true, url: "/account", user: { id: user.id, email } });
    expect(setCookie(response, COOKIE.sessionToken)?.value).toBeTruthy();
    expect((await c.get("/api/auth/get-session")).body.session.token).toBe(response.body.token);
  });

  it("says 'invalid username or password' (401) for a wrong password and for an unknown username alike", async () => {
    const { typed } = await withUsername();
    const wrong = await client().post("/api/auth/sign-in/username", { username: typed, password: "not the password" });
    const unknown = await client().post("/api/auth/sign-in/username", { username: uniqueUsername("nobody"), password: PASSWORD });
    for (const response of [wrong, unknown]) {
      expect(response.status).toBe(401);
      expect(response.body).toEqual({ code: "INVALID_USERNAME_OR_PASSWORD", message: "invalid username or password" });
      expect(setCookie(response, COOKIE.sessionToken)).toBeUndefined();
    }
  });

  it("gives a malformed username a clear 400 and a missing one a validation error", async () => {
    const response = await client().post("/api/auth/sign-in/username", { username: "no spaces allowed", password: PASSWORD });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("USERNAME_IS_INVALID");
    expect((await client().post("/api/auth/sign-in/username", { password: PASSWORD })).body.code).toBe("VALIDATION_ERROR");
  });

  it("stops at the second factor for a user with two-factor on", async () => {
    const { typed, client: owner } = await withUsername();
    await enableTwoFactor(owner);
    const response = await client().post("/api/auth/sign-in/username", { username: typed, password: PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(TWO_FACTOR_REDIRECT);
    expect(setCookie(response, COOKIE.sessionToken)).toBeUndefined();
  });
});

describe("POST /is-username-available and /update-user {username}", () => {
  it("answers {available} and validates the name", async () => {
    const { typed } = await withUsername();
    expect((await client().post("/api/auth/is-username-available", { username: typed.toUpperCase() })).body).toEqual({ available: false });
    expect((await client().post("/api/auth/is-username-available", { username: uniqueUsername("free") })).body).toEqual({ available: true });
    const bad = await client().post("/api/auth/is-username-available", { username: "x" });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("USERNAME_IS_TOO_SHORT");
  });

  it("changes the username, refuses a taken one, and the new one signs in", async () => {
    const { client: c, typed: old } = await withUsername();
    const { typed: taken } = await withUsername();
    const refused = await c.post("/api/auth/update-user", { username: taken });
    expect(refused.status).toBe(422);
    expect(refused.body.code).toBe("USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER");
    const fresh = uniqueUsername("Renamed");
    const changed = await c.post("/api/auth/update-user", { username: fresh });
    expect(changed.status).toBe(200);
    expect(changed.body).toEqual({ status: true });
    const session = (await c.get("/api/auth/get-session")).body;
    expect(session.user.username).toBe(fresh.toLowerCase());
    expect(session.user.displayUsername).toBe(fresh);
    expect((await client().post("/api/auth/sign-in/username", { username: fresh, password: PASSWORD })).status).toBe(200);
    expect((await client().post("/api/auth/sign-in/username", { username: old, password: PASSWORD })).status).toBe(401);
    expect((await c.post("/api/auth/update-user", { username: "bad name" })).body.code).toBe("USERNAME_IS_INVALID");
  });

  it("a user without a username can sign up and still sign in by e-mail", async () => {
    const c = client();
    const { email, response } = await signUp(c);
    expect(response.body.user.username).toBeNull();
    expect((await client().post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
  });
});
