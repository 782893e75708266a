// Proof of work only under a burst (issue 39 §5, docs/decisions/060-proof-of-work-under-a-burst.md), over HTTP on
// both databases: asked only under each kind of burst (an account's new devices, an address's 429, an address's
// wrong passwords), never from a device the account knows; a solution works once; forged and replayed ones are
// refused; a known and an unknown identifier are answered alike. Every request comes from its own client address
// (trusted proxy header) unless a test says otherwise.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, eventually, PASSWORD, uniqueEmail, type ApiResponse } from "../support/client";
import { databaseKindUnderTest } from "../support/database";
import { foreignChallenge, solvePow } from "../support/proof-of-work";
import { sharedServer, startServer, useServerWithMailbox, type TestServer } from "../support/server";
import { query } from "../support/sql";

const POW = { AUTH_POW: "on", AUTH_POW_COST: "1", AUTH_EMAIL_VERIFICATION: "off", TRUST_PROXY: "true" };
const MISSING = { code: "MISSING_RESPONSE", message: "Missing CAPTCHA response" };
const FAILED = { code: "VERIFICATION_FAILED", message: "Captcha verification failed" };
const WRONG = "not the right password";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

let server: TestServer;
useServerWithMailbox({ ...POW, AUTH_RATE_LIMIT: "on" }, (running) => ({ server } = running));

const uniqueIp = () => `10.${[...randomBytes(3)].join(".")}`;
/** A browser (one cookie jar) at one client address, or at a new one for every request (`ip` null). */
class Browser extends ApiClient {
  constructor(
    baseUrl: string,
    readonly ip: string | null = null,
  ) {
    super(baseUrl);
  }
  override request<T = any>(method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) {
    return super.request<T>(method, path, { ...options, headers: { "x-forwarded-for": this.ip ?? uniqueIp(), ...options.headers } });
  }
}

const signIn = (client: ApiClient, email: string, password: string, headers?: Record<string, string>) =>
  client.post("/api/auth/sign-in/email", { email, password }, headers);

async function newAccount(on: TestServer) {
  const owner = new Browser(on.baseUrl);
  const email = uniqueEmail("pow");
  const response = await owner.post("/api/auth/sign-up/email", { name: "Pow Target", email, password: PASSWORD });
  expect(response.status, response.text).toBe(200);
  return { email, owner, userId: response.body.user.id as string };
}

/**
 * Sends `request` until it is asked for a solution: the server counts a burst's evidence just after answering, in
 * memory while it is alone and in the shared table otherwise, so a test waits on answers, not on rows.
 */
const untilAsked = (request: () => Promise<ApiResponse>) => eventually(request, (response) => response.status === 400);

function expectChallenge(response: ApiResponse, expected: typeof MISSING | typeof FAILED) {
  expect(response.status, response.text).toBe(expected === MISSING ? 400 : 403);
  expect(response.body).toMatchObject(expected);
  expect(Object.keys(response.body).sort()).toEqual(["challenge", "code", "message"]);
  expect(response.body.challenge.parameters.algorithm).toBe("PBKDF2/SHA-256");
  expect(response.body.challenge.signature).toMatch(/^[0-9a-f]{64}$/);
  return response.body.challenge;
}

const events = (on: TestServer, userId: string, type: string) =>
  query<{ details: string }>(on.database, `SELECT "details" FROM "securityEvent" WHERE "userId" = ? AND "type" = ?`, [userId, type]).then((rows) =>
    rows.map((row) => JSON.parse(row.details) as Record<string, unknown>),
  );

describe("proof of work under a burst", () => {
  it("hands out challenges: PBKDF2/SHA-256, signed, five minutes to live", async () => {
    const response = await new Browser(server.baseUrl).get("/api/auth/pow/challenge");
    expect(response.status, response.text).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["parameters", "signature"]);
    const { parameters } = response.body;
    expect(parameters.algorithm).toBe("PBKDF2/SHA-256");
    expect(parameters.cost).toBe(1);
    expect(parameters.expiresAt - Date.now() / 1000).toBeGreaterThan(290);
    expect(parameters.expiresAt - Date.now() / 1000).toBeLessThanOrEqual(300);
  });

  it("asks nothing on a quiet server", async () => {
    const { email } = await newAccount(server);
    expect((await signIn(new Browser(server.baseUrl), email, WRONG)).status).toBe(401);
    expect((await signIn(new Browser(server.baseUrl), email, PASSWORD)).status).toBe(200);
  });

  it("an account's new devices with 5 wrong passwords: strangers need a solution, which works once; the owner's device is never asked", async () => {
    const { email, owner, userId } = await newAccount(server);
    for (let i = 0; i < 5; i++) expect((await signIn(new Browser(server.baseUrl), email, WRONG)).status).toBe(401);

    const stranger = new Browser(server.baseUrl);
    const challenge = expectChallenge(await untilAsked(() => signIn(stranger, email, PASSWORD)), MISSING);
    const solution = await solvePow(challenge);
    const signedIn = await signIn(stranger, email, PASSWORD, { "x-captcha-response": solution });
    expect(signedIn.status, signedIn.text).toBe(200);
    // The same solution again, from anywhere: refused.
    expectChallenge(await signIn(new Browser(server.baseUrl), email, PASSWORD, { "x-captcha-response": solution }), FAILED);
    // The owner's browser (it created the account) is never asked.
    expect((await signIn(owner, email, PASSWORD)).status).toBe(200);
    expect((await signIn(stranger, email, PASSWORD)).status).toBe(200); // known since it signed in
    const blocked = await eventually(() => events(server, userId, "sign_in_blocked"), (rows) => rows.length === 2);
    expect(blocked.every((details) => details.reason === "challenge")).toBe(true);
  }, 60_000);

  it("counts in this instance's memory while it is alone on its database: no row of it in the table", async () => {
    const { email } = await newAccount(server);
    for (let i = 0; i < 5; i++) expect((await signIn(new Browser(server.baseUrl), email, WRONG)).status).toBe(401);
    const stranger = new Browser(server.baseUrl);
    const solution = await solvePow(expectChallenge(await untilAsked(() => signIn(stranger, email, PASSWORD)), MISSING));
    expect((await signIn(stranger, email, PASSWORD, { "x-captcha-response": solution })).status).toBe(200);
    const rows = await query(server.database, `SELECT "key" FROM "rateLimit" WHERE "key" LIKE 'pow:%'`);
    expect(rows).toEqual([]);
  }, 60_000);

  it("refuses forged, garbled and wrongly solved solutions", async () => {
    const { email } = await newAccount(server);
    for (let i = 0; i < 5; i++) expect((await signIn(new Browser(server.baseUrl), email, WRONG)).status).toBe(401);
    await untilAsked(() => signIn(new Browser(server.baseUrl), email, PASSWORD));
    const forged = await solvePow(await foreignChallenge());
    expectChallenge(await signIn(new Browser(server.baseUrl), email, PASSWORD, { "x-captcha-response": forged }), FAILED);
    expectChallenge(await signIn(new Browser(server.baseUrl), email, PASSWORD, { "x-captcha-response": "not base64 json" }), FAILED);
    // Ours, with its parameters changed (a longer expiry): the signature no longer holds.
    const challenge = (await new Browser(server.baseUrl).get("/api/auth/pow/challenge")).body;
    const solved = JSON.parse(Buffer.from(await solvePow(challenge), "base64").toString());
    solved.challenge.parameters.expiresAt += 3600;
    const edited = Buffer.from(JSON.stringify(solved)).toString("base64");
    expectChallenge(await signIn(new Browser(server.baseUrl), email, PASSWORD, { "x-captcha-response": edited }), FAILED);
    // Ours, with a wrong key.
    const wrongKey = JSON.parse(Buffer.from(await solvePow(challenge), "base64").toString());
    wrongKey.solution.derivedKey = "00".repeat(32);
    expectChallenge(
      await signIn(new Browser(server.baseUrl), email, PASSWORD, { "x-captcha-response": Buffer.from(JSON.stringify(wrongKey)).toString("base64") }),
      FAILED,
    );
  }, 60_000);

  it("answers a known and an unknown address alike, past the burst's start", async () => {
    const { email } = await newAccount(server);
    const nobody = uniqueEmail("nobody");
    const shape = (r: ApiResponse) => ({
      status: r.status,
      code: r.body?.code,
      keys: Object.keys(r.body ?? {}).sort(),
      headers: [...r.headers.keys()].filter((name) => name !== "date" && name !== "content-length").sort(),
      cookies: r.setCookies.map((line) => line.slice(0, line.indexOf("="))).sort(),
    });
    for (let i = 0; i < 7; i++) {
      const known = await signIn(new Browser(server.baseUrl), email, WRONG);
      const unknown = await signIn(new Browser(server.baseUrl), nobody, WRONG);
      expect(shape(known), `attempt ${i + 1}`).toEqual(shape(unknown));
      // Wait for both bursts' evidence before the next pair, so both cross the line on the same attempt.
      if (i === 4) {
        await eventually(
          () => signIn(new Browser(server.baseUrl), nobody, PASSWORD).then((r) => r.status),
          (status) => status === 400,
        );
        await eventually(
          () => signIn(new Browser(server.baseUrl), email, WRONG, { "x-captcha-response": "x" }).then((r) => r.status),
          (status) => status === 403,
        );
      }
      if (i > 4) expect(known.status).toBe(400);
    }
  }, 60_000);

  it("an address refused by the per-address limit on sign-in needs a solution for sign-up and reset too; other addresses do not", async () => {
    const address = new Browser(server.baseUrl, uniqueIp());
    const nobody = uniqueEmail("flood");
    for (let i = 0; i < 3; i++) expect((await signIn(address, nobody, WRONG)).status).toBe(401);
    expect((await signIn(address, nobody, WRONG)).status).toBe(429);
    const signUp = await address.post("/api/auth/sign-up/email", { name: "New", email: uniqueEmail("pow-new"), password: PASSWORD });
    const challenge = expectChallenge(signUp, MISSING);
    expectChallenge(await address.post("/api/auth/request-password-reset", { email: uniqueEmail("pow-reset") }), MISSING);
    expectChallenge(await address.post("/api/auth/email-otp/request-password-reset", { email: uniqueEmail("pow-reset") }), MISSING);
    expectChallenge(await address.post("/api/auth/email-otp/send-verification-otp", { email: uniqueEmail("pow-reset"), type: "forget-password" }), MISSING);
    // A mailed sign-in code is a way in that stays open during a burst.
    expect((await address.post("/api/auth/email-otp/send-verification-otp", { email: uniqueEmail("pow-code"), type: "sign-in" })).status).toBe(200);
    // The form field works as the header does.
    const form = new URLSearchParams({ name: "New", email: uniqueEmail("pow-new"), password: PASSWORD, altcha: await solvePow(challenge) });
    const created = await address.request("POST", "/api/auth/sign-up/email", { rawBody: form.toString(), headers: FORM });
    expect(created.status, created.text).toBe(200);
    // Another address is not under this burst.
    const elsewhere = await new Browser(server.baseUrl).post("/api/auth/sign-up/email", { name: "New", email: uniqueEmail("pow-new"), password: PASSWORD });
    expect(elsewhere.status, elsewhere.text).toBe(200);
  }, 60_000);

  it("the sign-in page without a solution says to wait or use another way in; with the form field it signs in", async () => {
    const address = new Browser(server.baseUrl, uniqueIp());
    const { email } = await newAccount(server);
    for (let i = 0; i < 3; i++) expect((await address.post("/api/auth/sign-up/email", { name: "x", email: "not-an-address", password: PASSWORD })).status).toBe(400);
    expect((await address.post("/api/auth/sign-up/email", { name: "x", email: "not-an-address", password: PASSWORD })).status).toBe(429);
    const page = await address.get("/sign-in");
    expect(page.text).toContain("proof-of-work");
    expect(page.text).toMatch(/Try again in \d+ minutes?/);
    const refused = await address.request("POST", "/sign-in", { rawBody: new URLSearchParams({ email, password: PASSWORD }).toString(), headers: FORM });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("needs a short check first");
    expect(refused.text).toMatch(/with a code we email you/);
    const challenge = (await address.get("/api/auth/pow/challenge")).body;
    const form = new URLSearchParams({ email, password: PASSWORD, altcha: await solvePow(challenge) });
    const signedIn = await address.request("POST", "/sign-in", { rawBody: form.toString(), headers: FORM });
    expect(signedIn.status, signedIn.text).toBe(302);
  }, 60_000);

  it("the sign-up and forgot-password pages without a solution say the same in their own words", async () => {
    const address = new Browser(server.baseUrl, uniqueIp());
    for (let i = 0; i < 3; i++) expect((await address.post("/api/auth/request-password-reset", { email: uniqueEmail("x") })).status).toBe(200);
    expect((await address.post("/api/auth/request-password-reset", { email: uniqueEmail("x") })).status).toBe(429);
    const signUp = new URLSearchParams({ name: "New", email: uniqueEmail("pow-page"), password: PASSWORD });
    const refused = await address.request("POST", "/sign-up", { rawBody: signUp.toString(), headers: FORM });
    expect(refused.status).toBe(400);
    expect(refused.text).toContain("The puzzle needs JavaScript, which is off in this browser.");
    expect(refused.text.replaceAll("<!-- -->", "")).toMatch(/Try again in \d+ minutes?, or create your account later/);
    // The forgot-password page shares the reset's per-address bucket, which refused this address: the limit answers
    // first, and the page it shows already carries the check.
    const forgot = await address.get("/forgot-password");
    expect(forgot.text).toContain("The puzzle needs JavaScript, which is off in this browser.");
  }, 60_000);
});

describe("proof of work under a burst of wrong passwords from one address", () => {
  let quiet: TestServer;
  // The per-address limit off, so ten wrong passwords can come from one address without a 429.
  beforeAll(async () => {
    quiet = await sharedServer({ env: { ...POW, AUTH_RATE_LIMIT: "off" } });
  });
  afterAll(() => quiet?.stop());

  it("ten wrong passwords from an address put it under a burst, for every account", async () => {
    const address = new Browser(quiet.baseUrl, uniqueIp());
    for (let i = 0; i < 10; i++) expect((await signIn(address, uniqueEmail("spray"), WRONG)).status).toBe(401);
    await untilAsked(() => address.post("/api/auth/request-password-reset", { email: uniqueEmail("spray") }));
    const { email } = await newAccount(quiet);
    expectChallenge(await signIn(address, email, PASSWORD), MISSING);
    expectChallenge(await address.post("/api/auth/sign-in/username", { username: "someone", password: WRONG }), MISSING);
    // Elsewhere, the same account signs in unasked.
    expect((await signIn(new Browser(quiet.baseUrl), email, PASSWORD)).status).toBe(200);
  }, 60_000);
});

describe("proof of work on two instances sharing one database", () => {
  let first: TestServer;
  let second: TestServer;
  // On PostgreSQL each instance finds the other and counts in the shared table (ADR 025). Two SQLite processes on
  // one file are not a deployment that counts in memory (cluster workers count in the table): the table is forced.
  const env = { ...POW, AUTH_RATE_LIMIT: "on", ...(databaseKindUnderTest() === "sqlite" ? { AUTH_RATE_LIMIT_STORE: "database" } : {}) };
  beforeAll(async () => {
    first = await startServer({ env });
    second = await startServer({ env, database: first.database });
  }, 120_000);
  afterAll(async () => {
    await second?.stop();
    await first?.stop();
  });

  it("a burst seen on one is a burst on the other, and a solution used on one is refused on the other", async () => {
    const { email } = await newAccount(first);
    for (let i = 0; i < 5; i++) expect((await signIn(new Browser(first.baseUrl), email, WRONG)).status).toBe(401);
    const challenge = expectChallenge(await untilAsked(() => signIn(new Browser(second.baseUrl), email, PASSWORD)), MISSING);
    const solution = await solvePow(challenge);
    expect((await signIn(new Browser(second.baseUrl), email, PASSWORD, { "x-captcha-response": solution })).status).toBe(200);
    expectChallenge(await signIn(new Browser(first.baseUrl), email, PASSWORD, { "x-captcha-response": solution }), FAILED);
  }, 60_000);

  it("an address refused on one instance is asked for a solution on the other", async () => {
    const ip = uniqueIp();
    const onFirst = new Browser(first.baseUrl, ip);
    for (let i = 0; i < 3; i++) expect((await signIn(onFirst, uniqueEmail("two"), WRONG)).status).toBe(401);
    expect((await signIn(onFirst, uniqueEmail("two"), WRONG)).status).toBe(429);
    const onSecond = new Browser(second.baseUrl, ip);
    expectChallenge(await untilAsked(() => onSecond.post("/api/auth/request-password-reset", { email: uniqueEmail("two") })), MISSING);
  }, 60_000);
});

describe("proof of work when a second instance joins (PostgreSQL, ADR 025)", () => {
  it.skipIf(databaseKindUnderTest() !== "postgres")("a burst counted in memory while alone moves to the table, and the newcomer sees it", async () => {
    const env = { ...POW, AUTH_RATE_LIMIT: "on" };
    const first = await startServer({ env });
    let second: TestServer | undefined;
    try {
      const { email } = await newAccount(first);
      for (let i = 0; i < 5; i++) expect((await signIn(new Browser(first.baseUrl), email, WRONG)).status).toBe(401);
      await untilAsked(() => signIn(new Browser(first.baseUrl), email, PASSWORD));
      const used = await solvePow((await new Browser(first.baseUrl).get("/api/auth/pow/challenge")).body);
      expect((await signIn(new Browser(first.baseUrl), email, PASSWORD, { "x-captcha-response": used })).status).toBe(200);
      second = await startServer({ env, database: first.database });
      expectChallenge(await signIn(new Browser(second.baseUrl), email, PASSWORD), MISSING);
      expectChallenge(await signIn(new Browser(second.baseUrl), email, PASSWORD, { "x-captcha-response": used }), FAILED);
    } finally {
      await second?.stop();
      await first.stop();
    }
  }, 120_000);
});
