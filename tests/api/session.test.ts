// GET /api/auth/get-session: reading, extending and expiring sessions, and the optional cookie cache.
import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, eventually, signUp } from "../support/client";
import { COOKIE, clears, cloneClient, expectLifetime, expectMaxAgeEndingAt, setCookie, timed } from "../support/cookies";
import { sharedServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

const GET_SESSION = "/api/auth/get-session";
const SIGN_IN = "/api/auth/sign-in/email";

let server: TestServer;
/**
 * A configured lifetime and update age. Time passes for these sessions by moving their stored ends back by hand, not
 * by waiting: a wait leaves each step a few seconds before the next boundary, which a busy 2-core machine can use up.
 */
const LIFETIME_S = 3_600;
const UPDATE_AGE_S = 600;
let shortLived: TestServer;
/** A signed copy of the session in a cookie may answer get-session for 60 s. */
let cached: TestServer;
beforeAll(async () => {
  [server, shortLived, cached] = await Promise.all([
    sharedServer(),
    sharedServer({ env: { AUTH_SESSION_EXPIRES_IN: String(LIFETIME_S), AUTH_SESSION_UPDATE_AGE: String(UPDATE_AGE_S) } }),
    sharedServer({ env: { AUTH_COOKIE_CACHE_MAX_AGE: "on" } }), // "on": the spec's 60 s fallback
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), shortLived?.stop(), cached?.stop()]);
});

async function signIn(s: TestServer, email: string, extra: Record<string, unknown> = {}) {
  const client = new ApiClient(s.baseUrl);
  const { response, ...span } = await timed(() => client.post(SIGN_IN, { email, password: PASSWORD, ...extra }));
  expect(response.status, response.text).toBe(200);
  return { client, response, span, token: response.body.token as string };
}

describe("reading the session", () => {
  it("answers 200 with JSON null when there is no session cookie", async () => {
    const response = await new ApiClient(server.baseUrl).get(GET_SESSION);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.text).toBe("null");
    expect(response.setCookies).toEqual([]);
  });

  it("answers {session, user} for a signed-in client", async () => {
    const client = new ApiClient(server.baseUrl);
    const { response: signUpResponse, ...span } = await timed(() =>
      client.post(
        "/api/auth/sign-up/email",
        { name: "Reader", email: `reader-${Date.now()}@example.com`, password: PASSWORD },
        { "user-agent": "LatchkeyTest/1.0 (X11; Linux x86_64) Firefox/130.0" },
      ),
    );
    expect(signUpResponse.status).toBe(200);
    const response = await client.get(GET_SESSION);
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toMatch(/no-store/);
    const { session, user } = response.body;
    expect(user).toEqual(signUpResponse.body.user);
    expect(session).toMatchObject({ token: signUpResponse.body.token, userId: user.id, userAgent: "LatchkeyTest/1.0 (X11; Linux x86_64) Firefox/130.0" });
    expect(session.id).toMatch(/^[A-Za-z0-9]+$/);
    expect(session.ipAddress).toMatch(/127\.0\.0\.1|::1/);
    // Dates travel as JSON.stringify writes a Date: ISO 8601 in UTC with milliseconds.
    for (const field of ["expiresAt", "createdAt", "updatedAt"]) expect(session[field]).toBe(new Date(session[field]).toISOString());
    for (const field of ["createdAt", "updatedAt"]) expect(user[field]).toBe(new Date(user[field]).toISOString());
    // The default lifetime, seven days, from the moment the server started the session.
    expectLifetime(new Date(session.expiresAt).getTime(), 604_800, span);
  });

  it("answers null and clears the cookie when the signature does not verify", async () => {
    const { client, token } = await signIn(server, (await signUp(new ApiClient(server.baseUrl))).email);
    const genuine = client.cookies.get(COOKIE.sessionToken)!;
    const signature = genuine.slice(genuine.lastIndexOf(".") + 1);
    const flip = (s: string) => s.slice(0, -2) + (s.at(-2) === "A" ? "B" : "A") + s.at(-1);
    const otherToken = token.slice(0, -1) + (token.at(-1) === "a" ? "b" : "a");
    const foreignSignature = createHmac("sha256", "some-other-secret-that-is-long-enough-0123456789")
      .update(`session\0${token}`)
      .digest("base64url");
    const forgeries = {
      "altered signature": `${token}.${flip(signature)}`,
      "another token under the same signature": `${otherToken}.${signature}`,
      "signed with another secret": `${token}.${foreignSignature}`,
      "no signature": token,
      "empty signature": `${token}.`,
      garbage: "%%%not-a-cookie%%%",
    };
    for (const [label, value] of Object.entries(forgeries)) {
      const forger = new ApiClient(server.baseUrl);
      forger.cookies.set(COOKIE.sessionToken, value);
      const response = await forger.get(GET_SESSION);
      expect(response.status, label).toBe(200);
      expect(response.body, label).toBeNull();
      expect(clears(response, COOKIE.sessionToken), label).toBe(true);
    }
    // The genuine cookie still works: the forgeries touched nothing.
    expect((await client.get(GET_SESSION)).body.session.token).toBe(token);
  });

  it("treats disableCookieCache and disableRefresh as harmless flags when there is no cache", async () => {
    const { client, token } = await signIn(server, (await signUp(new ApiClient(server.baseUrl))).email);
    const response = await client.get(`${GET_SESSION}?disableCookieCache=true&disableRefresh=true`);
    expect(response.body.session.token).toBe(token);
    const invalid = await client.get(`${GET_SESSION}?disableCookieCache=maybe`);
    expect(invalid.status).toBe(400);
    expect(invalid.body.code).toBe("VALIDATION_ERROR");
  });
});

describe(`lifetimes (sessions of ${LIFETIME_S} s, update age ${UPDATE_AGE_S} s)`, () => {
  const endOf = (response: { body: any }) => new Date(response.body.session.expiresAt).getTime();
  const expiresAt = async (c: ApiClient) => endOf(await c.get(`${GET_SESSION}?disableRefresh=true`));

  /**
   * Stores new ends (ms, by token) for sessions, as if time had passed for them, in one statement, and waits until
   * the server reads it through `watcher` (disableRefresh: a read that extends nothing). On PostgreSQL a hand edit
   * reaches the servers' session caches through NOTIFY, one per statement, a moment after its commit
   * (tests/support/sql.ts); a read that came before would extend a session from its cached copy, over the edit.
   */
  async function endSessions(ends: Record<string, number>, watcher: { client: ApiClient; token: string }) {
    const tokens = Object.keys(ends);
    // SQLite keeps milliseconds since the epoch; PostgreSQL a timestamp without time zone, in UTC.
    const stored = (end: number) => (shortLived.database.kind === "sqlite" ? end : new Date(end).toISOString().replace("T", " ").replace("Z", ""));
    await query(
      shortLived.database,
      `UPDATE "session" SET "expiresAt" = CASE "token" ${tokens.map(() => "WHEN ? THEN CAST(? AS TIMESTAMP(3))").join(" ")} END
       WHERE "token" IN (${tokens.map(() => "?").join(", ")})`,
      [...tokens.flatMap((token) => [token, stored(ends[token])]), ...tokens],
    );
    const wanted = ends[watcher.token];
    const heard = (response: { body: any }) => (wanted <= Date.now() ? response.body === null : Boolean(response.body?.session) && endOf(response) === wanted);
    const read = await eventually(() => watcher.client.get(`${GET_SESSION}?disableRefresh=true`), heard, 15_000);
    expect(heard(read), `the server did not read the edited end: ${read.text}`).toBe(true);
  }

  it("extends a session read after its update age, unless told not to, and deletes expired ones", async () => {
    const { email, response: signedUp } = await signUp(new ApiClient(shortLived.baseUrl));
    const [frozen, refreshed, expiring, unremembered] = await Promise.all([
      signIn(shortLived, email),
      signIn(shortLived, email),
      signIn(shortLived, email),
      signIn(shortLived, email, { rememberMe: false }),
    ]);
    // The session lives the configured lifetime, and the cookie's Max-Age ends with it (what the server computed
    // from its own clock, not the constant: tests/support/cookies.ts).
    const signedInEnd = await expiresAt(refreshed.client);
    expectLifetime(signedInEnd, LIFETIME_S, refreshed.span);
    expectMaxAgeEndingAt(setCookie(refreshed.response, COOKIE.sessionToken), signedInEnd, refreshed.span);

    // Before the update age, a read extends nothing and writes no cookie.
    const early = await refreshed.client.get(GET_SESSION);
    expect(endOf(early)).toBe(signedInEnd);
    expect(setCookie(early, COOKIE.sessionToken)).toBeUndefined();

    // The update age passes, and a second more: each session's end moves that much closer.
    const ends: Record<string, number> = {};
    for (const session of [frozen, refreshed, expiring, unremembered]) ends[session.token] = (await expiresAt(session.client)) - (UPDATE_AGE_S + 1) * 1000;
    await endSessions(ends, frozen);
    const initial = {
      frozen: await expiresAt(frozen.client),
      refreshed: await expiresAt(refreshed.client),
      expiring: await expiresAt(expiring.client),
      unremembered: await expiresAt(unremembered.client),
    };
    expect(initial).toEqual({ frozen: ends[frozen.token], refreshed: ends[refreshed.token], expiring: ends[expiring.token], unremembered: ends[unremembered.token] });

    // disableRefresh: the same session, not extended, no cookie written.
    const notRefreshed = await frozen.client.get(`${GET_SESSION}?disableRefresh=true`);
    expect(endOf(notRefreshed)).toBe(initial.frozen);
    expect(setCookie(notRefreshed, COOKIE.sessionToken)).toBeUndefined();

    // Past the update age: extended to now + the lifetime, and the cookie is re-sent ending with it.
    const { response: extended, ...span } = await timed(() => refreshed.client.get(GET_SESSION));
    const newExpiry = endOf(extended);
    expect(newExpiry).toBeGreaterThan(initial.refreshed);
    expectLifetime(newExpiry, LIFETIME_S, span);
    const resent = setCookie(extended, COOKIE.sessionToken);
    expect(resent, extended.setCookies.join("\n")).toBeDefined();
    expectMaxAgeEndingAt(resent, newExpiry, span);
    // The extension is stored, not just reported.
    expect(await expiresAt(refreshed.client)).toBe(newExpiry);

    // A session the user chose not to remember is never extended.
    const forgetful = await unremembered.client.get(GET_SESSION);
    expect(endOf(forgetful)).toBe(initial.unremembered);
    expect(setCookie(forgetful, COOKIE.sessionToken)).toBeUndefined();

    // The sessions that were not extended (the sign-up's too) reach their end. `frozen`'s read (disableRefresh) is
    // the first to see it: it deletes the session and answers null.
    const past = Date.now() - 1_000;
    await endSessions({ [frozen.token]: past, [expiring.token]: past, [unremembered.token]: past, [signedUp.body.token]: past }, frozen);
    expect(await count(shortLived.database, "session", `"token" = ?`, [frozen.token])).toBe(0);

    const gone = await expiring.client.get(GET_SESSION);
    expect(gone.status).toBe(200);
    expect(gone.body).toBeNull();
    for (const name of [COOKIE.sessionToken, COOKIE.sessionData, COOKIE.dontRemember]) {
      expect(clears(gone, name), `${name} in ${gone.setCookies.join("\n")}`).toBe(true);
    }
    expect(await count(shortLived.database, "session", `"token" = ?`, [expiring.token])).toBe(0);
    expect((await frozen.client.get(`${GET_SESSION}?disableRefresh=true`)).body).toBeNull();

    // The extended one is still alive, and the sessions list leaves out the expired rows nobody has read yet.
    expect((await refreshed.client.get(GET_SESSION)).body.session.token).toBe(refreshed.token);
    expect(await count(shortLived.database, "session", `"token" = ?`, [unremembered.token])).toBe(1);
    const list = await refreshed.client.get("/api/auth/list-sessions");
    expect(list.status).toBe(200);
    expect(list.body.map((s: { token: string }) => s.token)).toEqual([refreshed.token]);
  });
});

describe("cookie cache (AUTH_COOKIE_CACHE_MAX_AGE=on, i.e. 60 s)", () => {
  it("sets a signed session_data cookie with the cache's Max-Age next to the session cookie", async () => {
    const { response } = await signUp(new ApiClient(cached.baseUrl));
    const data = setCookie(response, COOKIE.sessionData)!;
    expect(data, response.setCookies.join("\n")).toBeDefined();
    expect(data.attributes["max-age"]).toBe("60");
    expect(data.attributes.httponly).toBe(true);
    expect(String(data.attributes.samesite).toLowerCase()).toBe("lax");
    expect(data.attributes.path).toBe("/");
    expect(data.value.length).toBeLessThanOrEqual(4093);
  });

  it("skips the cache when it would not fit in 4093 characters, and the database answers instead", async () => {
    const client = new ApiClient(cached.baseUrl);
    // The session's user agent is part of the cached copy: a huge one makes the cookie too large to set.
    const response = await client.post(
      "/api/auth/sign-up/email",
      { name: "Big Agent", email: `big-agent-${Date.now()}@example.com`, password: PASSWORD },
      { "user-agent": `Mozilla/5.0 ${"x".repeat(4_000)}` },
    );
    expect(response.status).toBe(200);
    expect(setCookie(response, COOKIE.sessionToken)).toBeDefined();
    expect(setCookie(response, COOKIE.sessionData)).toBeUndefined();
    for (const line of response.setCookies) expect(line.length).toBeLessThanOrEqual(4_096);
    const session = await client.get(GET_SESSION);
    expect(session.body.session.token).toBe(response.body.token);
    expect(setCookie(session, COOKIE.sessionData)).toBeUndefined();
  });

  it("omits Max-Age on the cache cookie when the user chose not to be remembered", async () => {
    const { email } = await signUp(new ApiClient(cached.baseUrl));
    const { response } = await signIn(cached, email, { rememberMe: false });
    expect(setCookie(response, COOKIE.sessionData)!.attributes).not.toHaveProperty("max-age");
  });

  it("answers from the cache exactly as the database answers", async () => {
    const client = new ApiClient(cached.baseUrl);
    await signUp(client);
    const fromCache = await client.get(GET_SESSION);
    const fromDatabase = await client.get(`${GET_SESSION}?disableCookieCache=true`);
    expect(fromCache.body.session.token).toBeTruthy();
    expect(JSON.stringify(fromCache.body)).toBe(JSON.stringify(fromDatabase.body));
  });

  it("answers get-session from the cache, and from the database with disableCookieCache=true", async () => {
    const { email } = await signUp(new ApiClient(cached.baseUrl));
    const victim = await signIn(cached, email);
    const other = await signIn(cached, email);
    // Revoke the first session behind its back: only the database knows.
    const revoked = await other.client.post("/api/auth/revoke-session", { token: victim.token });
    expect(revoked.body).toEqual({ status: true });
    expect(await count(cached.database, "session", `"token" = ?`, [victim.token])).toBe(0);

    const fromCache = await victim.client.get(GET_SESSION);
    expect(fromCache.status).toBe(200);
    expect(fromCache.body?.session.token).toBe(victim.token);
    expect(fromCache.body.user.email).toBe(email);

    // Endpoints that act on the session never trust the cache.
    expect((await cloneClient(victim.client).get("/api/auth/list-sessions")).status).toBe(401);

    const fromDatabase = await victim.client.get(`${GET_SESSION}?disableCookieCache=true`);
    expect(fromDatabase.body).toBeNull();
    expect(clears(fromDatabase, COOKIE.sessionToken)).toBe(true);
    expect(clears(fromDatabase, COOKIE.sessionData)).toBe(true);
  });

  it("ignores a cache cookie that was altered or belongs to another session", async () => {
    const { email } = await signUp(new ApiClient(cached.baseUrl), { name: "Original Name" });
    const victim = await signIn(cached, email);
    const other = await signIn(cached, email);
    const otherData = other.client.cookies.get(COOKIE.sessionData)!;

    // Someone else's cache next to my session cookie: my own session answers, from the database.
    const mixed = cloneClient(victim.client);
    mixed.cookies.set(COOKIE.sessionData, otherData);
    expect((await mixed.get(GET_SESSION)).body.session.token).toBe(victim.token);

    // A forged cache (payload edited, signature kept) must not be believed: revoke, then forge.
    await other.client.post("/api/auth/revoke-session", { token: victim.token });
    const genuine = victim.client.cookies.get(COOKIE.sessionData)!;
    const dot = genuine.lastIndexOf(".");
    const payload = JSON.parse(Buffer.from(genuine.slice(0, dot), "base64url").toString("utf8"));
    payload.user.name = "Forged Name";
    const forged = cloneClient(victim.client);
    forged.cookies.set(COOKIE.sessionData, `${Buffer.from(JSON.stringify(payload)).toString("base64url")}${genuine.slice(dot)}`);
    const response = await forged.get(GET_SESSION);
    expect(response.body).toBeNull();
    // The untouched cache still answers (it is trusted until it expires).
    expect((await victim.client.get(GET_SESSION)).body.user.name).toBe("Original Name");
  });

  it("rewrites the cache when the user changes, so the cached copy is never stale", async () => {
    const client = new ApiClient(cached.baseUrl);
    await signUp(client, { name: "Before" });
    expect((await client.get(GET_SESSION)).body.user.name).toBe("Before");
    const update = await client.post("/api/auth/update-user", { name: "After" });
    expect(update.body).toEqual({ status: true });
    expect(setCookie(update, COOKIE.sessionData)).toBeDefined();
    expect((await client.get(GET_SESSION)).body.user.name).toBe("After");
  });
});
