// POST /api/auth/sign-up/email: the account, the session it starts, and every way the input can be wrong.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { COOKIE, setCookie } from "../support/cookies";
import { sharedServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

const SIGN_UP = "/api/auth/sign-up/email";
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

let server: TestServer;
/** Started with PASSWORD_MIN_LENGTH=12 and PASSWORD_MAX_LENGTH=16. */
let strict: TestServer;
beforeAll(async () => {
  [server, strict] = await Promise.all([
    sharedServer(),
    sharedServer({ env: { PASSWORD_MIN_LENGTH: "12", PASSWORD_MAX_LENGTH: "16" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), strict?.stop()]);
});

const usersWithEmail = (s: TestServer, email: string) => count(s.database, "user", `"email" = ?`, [email.toLowerCase()]);

describe("successful sign-up", () => {
  it("returns {token, user}, sets the session cookie and stores a credential account", async () => {
    const client = new ApiClient(server.baseUrl);
    const email = uniqueEmail("signup");
    const response = await client.post(SIGN_UP, { name: "Ada Lovelace", email, password: PASSWORD });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["token", "user"]);
    const { token, user } = response.body;
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(user).toMatchObject({ name: "Ada Lovelace", email, emailVerified: false, image: null });
    expect(user.id).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(user.createdAt).toMatch(ISO_DATE);
    expect(user.updatedAt).toMatch(ISO_DATE);
    expect(user).not.toHaveProperty("password");

    const cookie = setCookie(response, COOKIE.sessionToken);
    expect(cookie, response.setCookies.join("\n")).toBeDefined();
    // The signed cookie carries the same token the body returns.
    expect(decodeURIComponent(cookie!.value).startsWith(`${token}.`)).toBe(true);

    const session = await client.get("/api/auth/get-session");
    expect(session.body.user.id).toBe(user.id);
    expect(session.body.session.token).toBe(token);

    const accounts = await query<{ providerId: string; accountId: string; password: string }>(
      server.database,
      `SELECT "providerId", "accountId", "password" FROM "account" WHERE "userId" = ?`,
      [user.id],
    );
    expect(accounts).toHaveLength(1);
    expect(accounts[0].providerId).toBe("credential");
    expect(accounts[0].accountId).toBe(user.id);
    // scrypt "salt:key": 16-byte salt and 64-byte key, hex; never the password itself. Test servers mark their
    // cheap hashes (ADR 032); the production format is checked in tests/unit/password-hashing.test.ts.
    expect(accounts[0].password).toMatch(/^test-only\$[0-9a-f]{32}:[0-9a-f]{128}$/);
  });

  it("keeps the optional image", async () => {
    const client = new ApiClient(server.baseUrl);
    const response = await client.post(SIGN_UP, {
      name: "Pic",
      email: uniqueEmail(),
      password: PASSWORD,
      image: "https://images.example.com/a.png",
    });
    expect(response.status).toBe(200);
    expect(response.body.user.image).toBe("https://images.example.com/a.png");
  });

  it("stores the e-mail lowercased and treats other casings as the same address", async () => {
    const client = new ApiClient(server.baseUrl);
    const lower = uniqueEmail("mixed");
    const mixed = lower.replace("mixed", "MiXeD").replace("example.com", "Example.COM");
    const response = await client.post(SIGN_UP, { name: "Mixed", email: mixed, password: PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body.user.email).toBe(lower);
    const rows = await query<{ email: string }>(server.database, `SELECT "email" FROM "user" WHERE "id" = ?`, [response.body.user.id]);
    expect(rows[0].email).toBe(lower);

    const again = await new ApiClient(server.baseUrl).post(SIGN_UP, { name: "Again", email: lower.toUpperCase(), password: PASSWORD });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ code: "USER_ALREADY_EXISTS", message: "User already exists" });

    const signIn = await new ApiClient(server.baseUrl).post("/api/auth/sign-in/email", { email: lower.toUpperCase(), password: PASSWORD });
    expect(signIn.status).toBe(200);
    expect(signIn.body.user.id).toBe(response.body.user.id);
  });

  it("ignores fields a client may not set (emailVerified, id, twoFactorEnabled)", async () => {
    const email = uniqueEmail("sneaky");
    const response = await new ApiClient(server.baseUrl).post(SIGN_UP, {
      name: "Sneaky",
      email,
      password: PASSWORD,
      emailVerified: true,
      id: "chosen-by-client",
      twoFactorEnabled: true,
    });
    expect(response.status).toBe(200);
    expect(response.body.user.emailVerified).toBe(false);
    expect(response.body.user.id).not.toBe("chosen-by-client");
    const rows = await query<{ emailVerified: unknown; twoFactorEnabled: unknown }>(
      server.database,
      `SELECT "emailVerified", "twoFactorEnabled" FROM "user" WHERE "email" = ?`,
      [email],
    );
    expect(Boolean(rows[0].emailVerified)).toBe(false);
    expect(Boolean(rows[0].twoFactorEnabled)).toBe(false);
  });

  it("accepts a form-encoded body like a browser form post", async () => {
    const email = uniqueEmail("form");
    const client = new ApiClient(server.baseUrl);
    const response = await client.request("POST", SIGN_UP, {
      rawBody: new URLSearchParams({ name: "Form", email, password: PASSWORD }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(200);
    expect(response.body.user.email).toBe(email);
  });
});

describe("duplicates", () => {
  it("refuses an address that is already registered with 422 USER_ALREADY_EXISTS, and sets no cookie", async () => {
    const { email } = await signUp(new ApiClient(server.baseUrl));
    const response = await new ApiClient(server.baseUrl).post(SIGN_UP, { name: "Dup", email, password: "another password" });
    expect(response.status).toBe(422);
    expect(response.body).toEqual({ code: "USER_ALREADY_EXISTS", message: "User already exists" });
    expect(setCookie(response, COOKIE.sessionToken)).toBeUndefined();
    expect(await usersWithEmail(server, email)).toBe(1);
  });

  it("lets exactly one of several concurrent sign-ups for one address through", async () => {
    const email = uniqueEmail("race");
    const responses = await Promise.all(
      Array.from({ length: 4 }, (_, i) => new ApiClient(server.baseUrl).post(SIGN_UP, { name: `Racer ${i}`, email, password: PASSWORD })),
    );
    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 422, 422, 422]);
    for (const loser of responses.filter((r) => r.status === 422)) {
      expect(loser.body).toEqual({ code: "USER_ALREADY_EXISTS", message: "User already exists" });
    }
    expect(await usersWithEmail(server, email)).toBe(1);
    const winner = responses.find((r) => r.status === 200)!;
    expect(await count(server.database, "account", `"userId" = ?`, [winner.body.user.id])).toBe(1);
  });
});

describe("password length", () => {
  const attempt = (s: TestServer, password: string) =>
    new ApiClient(s.baseUrl).post(SIGN_UP, { name: "Len", email: uniqueEmail("len"), password });

  /**
   * A password of exactly `n` characters that no breached-password list holds ("xxxxxxxx" is on it, ADR 056): the
   * length rules are this test's subject, not the list.
   */
  const ofLength = (n: number) => Array.from({ length: n }, (_, i) => "qZ7#mW2$pL9&"[i % 12]).join("");

  it("applies the default bounds of 8 and 128 characters", async () => {
    const short = await attempt(server, ofLength(7));
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ code: "PASSWORD_TOO_SHORT", message: "Password too short" });
    const long = await attempt(server, ofLength(129));
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ code: "PASSWORD_TOO_LONG", message: "Password too long" });
    expect((await attempt(server, ofLength(8))).status).toBe(200);
    expect((await attempt(server, ofLength(128))).status).toBe(200);
  });

  it("applies PASSWORD_MIN_LENGTH and PASSWORD_MAX_LENGTH from the environment", async () => {
    expect((await attempt(strict, ofLength(11))).body.code).toBe("PASSWORD_TOO_SHORT");
    expect((await attempt(strict, ofLength(17))).body.code).toBe("PASSWORD_TOO_LONG");
    expect((await attempt(strict, ofLength(12))).status).toBe(200);
    expect((await attempt(strict, ofLength(16))).status).toBe(200);
    // 8 characters is fine by default but too short here.
    expect((await attempt(strict, ofLength(8))).status).toBe(400);
  });

  it("creates nothing when the password is refused", async () => {
    const email = uniqueEmail("short");
    const response = await new ApiClient(server.baseUrl).post(SIGN_UP, { name: "Short", email, password: "short" });
    expect(response.status).toBe(400);
    expect(await usersWithEmail(server, email)).toBe(0);
  });
});

describe("malformed input", () => {
  it("answers 400 INVALID_EMAIL for a malformed address", async () => {
    for (const email of ["not-an-email", "a@", "@example.com", "a b@example.com", `${"x".repeat(250)}@example.com`]) {
      const response = await new ApiClient(server.baseUrl).post(SIGN_UP, { name: "Bad", email, password: PASSWORD });
      expect(response.status, email).toBe(400);
      expect(response.body, email).toEqual({ code: "INVALID_EMAIL", message: "Invalid email" });
      expect(await usersWithEmail(server, email), email).toBe(0);
    }
  });

  const cases: Array<[string, { body?: unknown; rawBody?: string; contentType?: string }]> = [
    ["missing name", { body: { email: "{email}", password: PASSWORD } }],
    ["missing email", { body: { name: "N", password: PASSWORD } }],
    ["missing password", { body: { name: "N", email: "{email}" } }],
    ["empty object", { body: {} }],
    ["no body at all", { rawBody: "" }],
    ["name is a number", { body: { name: 42, email: "{email}", password: PASSWORD } }],
    ["email is a number", { body: { name: "N", email: 42, password: PASSWORD } }],
    ["email is an object", { body: { name: "N", email: { $ne: null }, password: PASSWORD } }],
    ["password is a number", { body: { name: "N", email: "{email}", password: 1234567890 } }],
    ["password is null", { body: { name: "N", email: "{email}", password: null } }],
    ["password is an array", { body: { name: "N", email: "{email}", password: [PASSWORD] } }],
    ["rememberMe is a string", { body: { name: "N", email: "{email}", password: PASSWORD, rememberMe: "yes" } }],
    ["image is a number", { body: { name: "N", email: "{email}", password: PASSWORD, image: 5 } }],
    ["body is JSON null", { rawBody: "null" }],
    ["body is a JSON array", { rawBody: "[]" }],
    ["body is a JSON string", { rawBody: '"hello"' }],
    ["body is malformed JSON", { rawBody: '{"name": "N", "email": ' }],
  ];

  for (const [label, input] of cases) {
    it(`answers 400 {code, message} and creates nothing: ${label}`, async () => {
      const email = uniqueEmail("malformed");
      const fill = (value: unknown): unknown => (value === "{email}" ? email : value);
      const body =
        input.body && typeof input.body === "object"
          ? Object.fromEntries(Object.entries(input.body as Record<string, unknown>).map(([k, v]) => [k, fill(v)]))
          : undefined;
      const response = await new ApiClient(server.baseUrl).request("POST", SIGN_UP, {
        ...(body ? { body } : { rawBody: input.rawBody }),
        headers: { "content-type": input.contentType ?? "application/json" },
      });
      expect(response.status, response.text).toBe(400);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(typeof response.body.code).toBe("string");
      expect(typeof response.body.message).toBe("string");
      expect(response.body.message.length).toBeGreaterThan(0);
      expect(response.setCookies).toEqual([]);
      expect(await usersWithEmail(server, email)).toBe(0);
    });
  }

  it("names the failing fields in a validation error", async () => {
    const response = await new ApiClient(server.baseUrl).post(SIGN_UP, { name: 42, email: uniqueEmail() });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
    expect(response.body.message).toContain("[body.name]");
    expect(response.body.message).toContain("[body.password]");
  });

  it("answers 400 for malformed JSON, its code derived from the message like every other", async () => {
    const response = await new ApiClient(server.baseUrl).request("POST", SIGN_UP, {
      rawBody: "{not json",
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "INVALID_JSON", message: "Invalid JSON" });
  });

  it("answers 415 for a body type it does not read, never 500", async () => {
    const response = await new ApiClient(server.baseUrl).request("POST", SIGN_UP, {
      rawBody: "name=a",
      headers: { "content-type": "text/plain" },
    });
    expect(response.status).toBe(415);
    expect(response.body.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });
});
