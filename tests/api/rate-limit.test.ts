// Rate limiting with AUTH_RATE_LIMIT=on: strict limits on credential paths, counters shared by every instance
// (the rateLimit table, or Redis when REDIS_URL is set), and kept in memory by an instance that is alone.
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail, type ApiResponse } from "../support/client";
import { databaseKindUnderTest } from "../support/database";
import { REDIS_URL, redisReachable } from "../support/redis";
import { RATE_LIMIT_WINDOW_FACTOR, sharedServer, startServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

const SIGN_IN = "/api/auth/sign-in/email";
const TOO_MANY = { code: "TOO_MANY_REQUESTS", message: "Too many requests" };

/** A client address nobody else uses, so counters never collide across tests, runs or databases. */
const uniqueIp = () => `10.${[...randomBytes(3)].join(".")}`;

/**
 * A 429 of a rule whose production window is `windowSeconds`. Test servers stretch every window by
 * RATE_LIMIT_WINDOW_FACTOR (tests/support/server.ts), so the requests that fill one never outlast it on a slow
 * machine; Retry-After is counted against the stretched window.
 */
function expectTooMany(response: ApiResponse, windowSeconds = 10) {
  expect(response.status, response.text).toBe(429);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expect(response.body).toEqual(TOO_MANY);
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(windowSeconds * RATE_LIMIT_WINDOW_FACTOR);
  expect(response.headers.get("x-retry-after")).toBe(String(retryAfter));
  expect(response.setCookies).toEqual([]);
}

const redisUp = await redisReachable();
if (!redisUp && process.env.CI === "true") throw new Error(`Redis is not reachable at ${REDIS_URL}; CI requires it.`);
if (!redisUp) console.warn(`[rate-limit.test] Redis is not reachable at ${REDIS_URL}: skipping the Redis cases.`);

// The per-address limits alone: these tests send one account's wrong passwords from many addresses, which the
// per-account lockout (ADR 057, tests/api/account-lockout.test.ts) would stop, and it writes rateLimit rows.
const ON = { AUTH_RATE_LIMIT: "on", AUTH_LOCKOUT: "off" };
const BEHIND_PROXY = { AUTH_RATE_LIMIT: "on", AUTH_LOCKOUT: "off", TRUST_PROXY: "true" };
/** Two processes on one SQLite file must say so: alone, a SQLite process counts in memory. */
const SHARED_DATABASE = { ...BEHIND_PROXY, AUTH_RATE_LIMIT_STORE: "database" };

let direct: TestServer; // limits on, client address from the socket (127.0.0.1 for every test)
let off: TestServer; // AUTH_RATE_LIMIT=off
let proxiedA: TestServer; // limits on, address from X-Forwarded-For, database store (AUTH_RATE_LIMIT_STORE)
let proxiedB: TestServer; // a second instance on proxiedA's database
let redisA: TestServer | undefined;
let redisB: TestServer | undefined;
let email: string;
const redisIps: string[] = [];

beforeAll(async () => {
  // Servers with limits on are their own: every test's requests come from 127.0.0.1 and count against one window.
  [direct, off, proxiedA] = await Promise.all([startServer({ env: ON }), sharedServer(), startServer({ env: SHARED_DATABASE })]);
  proxiedB = await startServer({ env: SHARED_DATABASE, database: proxiedA.database });
  if (redisUp) {
    [redisA, redisB] = await Promise.all([
      startServer({ env: { ...BEHIND_PROXY, REDIS_URL } }),
      startServer({ env: { ...BEHIND_PROXY, REDIS_URL } }),
    ]);
  }
  // The account exists on `direct` (one of its three sign-ups per window).
  email = (await signUp(new ApiClient(direct.baseUrl))).email;
});

afterAll(async () => {
  await Promise.all([direct?.stop(), off?.stop(), redisA?.stop(), redisB?.stop()]);
  await proxiedB?.stop();
  await proxiedA?.stop();
  if (redisUp && redisIps.length) {
    // Only this run's keys: they carry this run's made-up client addresses.
    const redis = new Redis(REDIS_URL);
    for (const ip of redisIps) {
      for await (const keys of redis.scanStream({ match: `latchkey:rl:*${ip}|*`, count: 100 })) {
        if ((keys as string[]).length) await redis.del(...(keys as string[]));
      }
    }
    redis.disconnect();
  }
});

const attempt = (s: TestServer, ip?: string, body: unknown = { email, password: "wrong password" }) =>
  new ApiClient(s.baseUrl).post(SIGN_IN, body, ip ? { "x-forwarded-for": ip } : {});

describe("database store", () => {
  it("refuses the 4th sign-in attempt of a window (10 s in production) with 429, Retry-After and X-Retry-After", async () => {
    const [first, second, third] = [await attempt(direct), await attempt(direct), await attempt(direct)];
    for (const response of [first, second, third]) expect(response.status).toBe(401);
    expectTooMany(await attempt(direct));
    // Still refused with the right password: the limit comes before any credential check.
    expectTooMany(await attempt(direct, undefined, { email, password: PASSWORD }));
  });

  it("counts in memory in a lone process, SQLite or PostgreSQL (no write per request)", async () => {
    // The previous test's attempts on `direct`, the only instance on its database.
    expect(await count(direct.database, "rateLimit", `"key" LIKE ?`, ["%|/sign-in/email"])).toBe(0);
  });

  it("cannot be dodged with a forged X-Forwarded-For when the proxy is not trusted", async () => {
    // The first test exhausted 127.0.0.1's sign-in bucket on `direct`.
    expectTooMany(await attempt(direct, uniqueIp()));
  });

  it("leaves other paths alone", async () => {
    // Same client, sign-in bucket exhausted above.
    const client = new ApiClient(direct.baseUrl);
    expect((await client.get("/api/auth/ok")).status).toBe(200);
    const signUpResponse = await client.post("/api/auth/sign-up/email", { name: "Other Path", email: uniqueEmail(), password: PASSWORD });
    expect(signUpResponse.status).toBe(200);
    for (let i = 0; i < 5; i++) expect((await client.get("/api/auth/get-session")).status).toBe(200);
    expect((await client.get("/api/auth/list-sessions")).status).toBe(200);
  });

  it("counts per client address", async () => {
    const [noisy, quiet] = [uniqueIp(), uniqueIp()];
    for (let i = 0; i < 3; i++) expect((await attempt(proxiedA, noisy)).status).toBe(401);
    expectTooMany(await attempt(proxiedA, noisy));
    expect((await attempt(proxiedA, quiet)).status).toBe(401);
  });

  it("shares the counter between instances through the rateLimit table", async () => {
    const ip = uniqueIp();
    const firstSentAt = Date.now();
    expect((await attempt(proxiedA, ip)).status).toBe(401);
    expect((await attempt(proxiedB, ip)).status).toBe(401);
    expect((await attempt(proxiedA, ip)).status).toBe(401);
    expectTooMany(await attempt(proxiedB, ip));
    expectTooMany(await attempt(proxiedA, ip));
    const rows = await query<{ key: string; count: number | bigint; lastRequest: number | bigint }>(
      proxiedA.database,
      `SELECT "key", "count", "lastRequest" FROM "rateLimit" WHERE "key" LIKE ?`,
      [`%${ip}%`],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0].key).toContain("/sign-in/email");
    expect(Number(rows[0].count)).toBeGreaterThanOrEqual(4);
    // The window started with the first request, on the servers' clock (this machine's).
    expect(Number(rows[0].lastRequest)).toBeGreaterThanOrEqual(firstSentAt);
    expect(Number(rows[0].lastRequest)).toBeLessThanOrEqual(Date.now());
  });

  it("answers a refused client without counting again until the window ends (a flood costs no write)", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 3; i++) expect((await attempt(proxiedA, ip)).status).toBe(401);
    for (let i = 0; i < 5; i++) expectTooMany(await attempt(proxiedA, ip));
    // A bodiless flood is answered without closing its keep-alive connection (a reconnection per request
    // would cost the server more than the refusal).
    const bodiless = await fetch(`${proxiedA.baseUrl}${SIGN_IN}`, { method: "POST", headers: { origin: proxiedA.origin, "x-forwarded-for": ip } });
    expect(bodiless.status).toBe(429);
    expect(bodiless.headers.get("connection")).not.toBe("close");
    const rows = await query<{ count: number | bigint }>(proxiedA.database, `SELECT "count" FROM "rateLimit" WHERE "key" LIKE ?`, [`%${ip}%`]);
    expect(rows.map((row) => Number(row.count))).toEqual([4]);
  });

  it("counts spellings of the same path (case, trailing slash, percent-encoding) against one bucket", async () => {
    // Routes match case-insensitively and ignore a trailing slash; a per-spelling bucket would multiply attempts.
    const ip = uniqueIp();
    for (let i = 0; i < 3; i++) expect((await attempt(proxiedA, ip)).status).toBe(401);
    for (const path of ["/api/auth/sign-in/email/", "/api/auth/SIGN-IN/EMAIL", "/api/auth/sign-in/Email", "/api/auth/sign-in/%65mail", "/API/AUTH/Sign-In/Email/"]) {
      const response = await new ApiClient(proxiedA.baseUrl).post(path, { email, password: "wrong password" }, { "x-forwarded-for": ip });
      expect(response.status, path).toBe(429);
    }
    // And the other way round: an odd spelling first uses up the plain path's attempts.
    const other = uniqueIp();
    for (let i = 0; i < 3; i++) {
      const response = await new ApiClient(proxiedA.baseUrl).post("/api/auth/Sign-In/Email", { email, password: "wrong password" }, { "x-forwarded-for": other });
      expect(response.status).toBe(401);
    }
    expectTooMany(await attempt(proxiedA, other));
  });

  it("holds under concurrent attempts: exactly 3 of 8 get through", async () => {
    const ip = uniqueIp();
    const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => attempt(i % 2 ? proxiedA : proxiedB, ip)));
    expect(responses.filter((r) => r.status === 401)).toHaveLength(3);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(5);
  });

  it("counts /forget-password and /request-password-reset in one bucket: they are one endpoint", async () => {
    const ip = uniqueIp();
    const request = (path: string) =>
      new ApiClient(proxiedA.baseUrl).post(path, { email: uniqueEmail("alias") }, { "x-forwarded-for": ip });
    expect((await request("/api/auth/forget-password")).status).toBe(200);
    expect((await request("/api/auth/request-password-reset")).status).toBe(200);
    expect((await request("/api/auth/forget-password")).status).toBe(200);
    const refused = await request("/api/auth/request-password-reset");
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual(TOO_MANY);
    // The mail rule's window (60 s in production, stretched on test servers).
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(60 * RATE_LIMIT_WINDOW_FACTOR);
  });

  it("is off with AUTH_RATE_LIMIT=off", async () => {
    for (let i = 0; i < 6; i++) expect((await attempt(off)).status).toBe(401);
    // No request counted ("<client>|<path>" buckets): its database is shared with other files' servers, whose
    // accounts' guess budgets ("guesses:…") live in the same table.
    expect(await count(off.database, "rateLimit", `"key" LIKE ?`, ["%|/%"])).toBe(0);
  });
});

describe("the OpenID provider's endpoints (ADR 051)", () => {
  it("count per client address and endpoint on every instance; past the limit the token endpoint answers 429 in OAuth's error shape", async () => {
    const ip = uniqueIp();
    const token = (s: TestServer) =>
      fetch(new URL("/api/auth/oauth2/token", s.baseUrl), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": ip },
        body: new URLSearchParams({ grant_type: "authorization_code", code: "nothing", client_id: "nobody" }),
      });
    // The default rule (100 per window: 10 s in production, stretched on test servers so that 101 requests on a
    // loaded 2-core machine all land in one window), spent on two instances sharing the counters.
    const answers = await Promise.all(Array.from({ length: 101 }, (_, i) => token(i % 2 ? proxiedA : proxiedB)));
    const refused = answers.filter((answer) => answer.status === 429);
    expect(answers.filter((answer) => answer.status !== 429).every((answer) => answer.status === 400 || answer.status === 401)).toBe(true);
    expect(refused).toHaveLength(1);
    const [tooMany] = refused;
    expect(tooMany.headers.get("content-type")).toMatch(/^application\/json/);
    expect(Number(tooMany.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    const body = await tooMany.json();
    expect(body).toEqual({ error: "temporarily_unavailable", error_description: expect.stringMatching(/^too many requests/) });
    // Another endpoint is another bucket; another address is another client.
    const discovery = await fetch(new URL("/.well-known/openid-configuration", proxiedA.baseUrl), { headers: { "x-forwarded-for": ip } });
    expect(discovery.status).toBe(200);
    expect((await token(proxiedA)).status).toBe(429);
    const elsewhere = await fetch(new URL("/api/auth/oauth2/token", proxiedA.baseUrl), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "x-forwarded-for": uniqueIp() },
      body: "grant_type=authorization_code",
    });
    expect(elsewhere.status).not.toBe(429);
  });
});

describe("TRUST_PROXY=1 (one proxy in front)", () => {
  it("keys on the address the proxy saw, not on entries the client made up", async () => {
    const oneHop = await startServer({ env: { AUTH_RATE_LIMIT: "on", TRUST_PROXY: "1" } });
    try {
      const seenByProxy = uniqueIp();
      // The client prepends a new made-up address each time; the proxy appends the one it saw.
      const tryOnce = () =>
        new ApiClient(oneHop.baseUrl).post(SIGN_IN, { email, password: "wrong password" }, { "x-forwarded-for": `${uniqueIp()}, ${seenByProxy}` });
      for (let i = 0; i < 3; i++) expect((await tryOnce()).status).toBe(401);
      expectTooMany(await tryOnce());
    } finally {
      await oneHop.stop();
    }
  });
});

describe("Redis store when Redis is unreachable", () => {
  it("keeps limiting through the database instead of failing requests", async () => {
    const unreachable = await startServer({ env: { ...BEHIND_PROXY, REDIS_URL: "redis://127.0.0.1:1" } });
    try {
      const ip = uniqueIp();
      for (let i = 0; i < 3; i++) expect((await attempt(unreachable, ip)).status).toBe(401);
      expectTooMany(await attempt(unreachable, ip));
      expect(await count(unreachable.database, "rateLimit")).toBeGreaterThan(0);
    } finally {
      await unreachable.stop();
    }
  });
});

describe.skipIf(!redisUp)("Redis store (REDIS_URL)", () => {
  it("limits sign-in attempts and shares the counter between instances", async () => {
    const ip = uniqueIp();
    redisIps.push(ip);
    expect((await attempt(redisA!, ip)).status).toBe(401);
    expect((await attempt(redisB!, ip)).status).toBe(401);
    expect((await attempt(redisA!, ip)).status).toBe(401);
    expectTooMany(await attempt(redisB!, ip));
    expectTooMany(await attempt(redisA!, ip));
    // Another address is unaffected, and the counters did not go to the database.
    const other = uniqueIp();
    redisIps.push(other);
    expect((await attempt(redisA!, other)).status).toBe(401);
    expect(await count(redisA!.database, "rateLimit")).toBe(0);
  });
});

/** Resolves once `text` has appeared `times` times in the server's output (or fails after `ms`). */
async function logged(server: TestServer, text: string, times = 1, ms = 30_000) {
  const deadline = Date.now() + ms;
  while (server.output().split(text).length - 1 < times) {
    if (Date.now() > deadline) throw new Error(`"${text}" was not logged ${times}× within ${ms} ms:\n${server.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const ALONE = "the only instance on this database; counting in memory";
const SHARED = "another instance shares this database; counting in the database";

/**
 * A mail path (3 per window: 60 s in production, an hour on test servers, so it outlasts a second server's start-up
 * on any machine). An unknown address sends nothing, so only the rate limit answers differently.
 */
const askForMail = (s: TestServer, ip: string) =>
  new ApiClient(s.baseUrl).post("/api/auth/send-verification-email", { email: `nobody-${ip}@example.com` }, { "x-forwarded-for": ip });

describe.skipIf(databaseKindUnderTest() !== "postgres")("PostgreSQL without Redis: memory while alone, the table while shared (ADR 025)", () => {
  it("carries the live windows into the table when a second instance starts, and back when it leaves", async () => {
    const a = await startServer({ env: BEHIND_PROXY });
    let b: TestServer | undefined;
    try {
      await logged(a, ALONE);
      const early = uniqueIp();
      for (let i = 0; i < 2; i++) expect((await askForMail(a, early)).status).toBe(200);
      expect(await count(a.database, "rateLimit", `"key" LIKE ?`, [`%${early}%`])).toBe(0); // no write while alone

      b = await startServer({ env: BEHIND_PROXY, database: a.database });
      await logged(a, SHARED);
      // A's two requests were written to the table before B counted anything: B allows the third only.
      expect((await askForMail(b, early)).status).toBe(200);
      expectTooMany(await askForMail(b, early), 60);
      expectTooMany(await askForMail(a, early), 60);

      // Counted in the table while two: one request through B, two through A.
      const late = uniqueIp();
      expect((await askForMail(b, late)).status).toBe(200);
      for (let i = 0; i < 2; i++) expect((await askForMail(a, late)).status).toBe(200);
      await b.stop();
      b = undefined;
      await logged(a, ALONE, 2);
      // Alone again, A read the live window back from the table: the fourth request is still refused.
      expectTooMany(await askForMail(a, late), 60);
    } finally {
      await b?.stop();
      await a.stop();
    }
  }, 90_000); // two server start-ups, a stop and three peer checks: over 30 s on a busy 2-core machine

  it("holds one listening connection per process, shared with the session cache; a process that does not count is no peer", async () => {
    const a = await startServer({ env: BEHIND_PROXY });
    const listening = async () =>
      query<{ application_name: string }>(
        a.database,
        `SELECT application_name FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'latchkey%'`,
      );
    let quiet: TestServer | undefined;
    try {
      await logged(a, ALONE);
      // The session cache starts listening on the first signed-in read: on the same connection.
      const client = new ApiClient(a.baseUrl);
      await signUp(client);
      expect((await client.get("/api/auth/get-session")).body?.user).toBeTruthy();
      expect((await listening()).map((row) => row.application_name)).toEqual(["latchkey-peer"]);

      // A second instance with the rate limit and the lockout off (the lockout counts where the limits do, ADR 061)
      // listens for the session cache only: A stays alone.
      quiet = await startServer({ env: { AUTH_RATE_LIMIT: "off", AUTH_LOCKOUT: "off" }, database: a.database });
      const other = new ApiClient(quiet.baseUrl);
      await signUp(other);
      expect((await other.get("/api/auth/get-session")).body?.user).toBeTruthy();
      await expect.poll(async () => (await listening()).map((row) => row.application_name).sort()).toEqual(["latchkey", "latchkey-peer"]);
      await new Promise((resolve) => setTimeout(resolve, 2_500)); // past a peer check
      expect(a.output()).not.toContain(SHARED);
    } finally {
      await quiet?.stop();
      await a.stop();
    }
  }, 90_000); // two server start-ups and their listeners: over 30 s on a busy 2-core machine

  it("counts in the table from the start when another instance is already there", async () => {
    const a = await startServer({ env: BEHIND_PROXY });
    const b = await startServer({ env: BEHIND_PROXY, database: a.database });
    try {
      await logged(a, SHARED);
      const ip = uniqueIp();
      expect((await askForMail(b, ip)).status).toBe(200);
      expect(await count(b.database, "rateLimit", `"key" LIKE ?`, [`%${ip}%`])).toBe(1);
      expect(b.output()).not.toContain(ALONE);
    } finally {
      await b.stop();
      await a.stop();
    }
  }, 90_000); // two server start-ups: over 30 s on a busy 2-core machine
});
