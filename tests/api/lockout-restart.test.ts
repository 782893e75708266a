// A lone instance counts the lockout in memory (ADR 061), so a quiet sign-in makes no round trip for it; a lock,
// though, is written to the table after the answer, and the next process on the database reads it back. So a
// restart does not lift a lock. (A window that is not yet spent is forgotten by a restart: ADR 061's consequences.)
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, eventually, uniqueEmail } from "../support/client";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { startServer, type TestServer } from "../support/server";
import { query } from "../support/sql";

const ENV = { AUTH_EMAIL_VERIFICATION: "off", AUTH_RATE_LIMIT: "on", TRUST_PROXY: "true" };
const LOCKED = { code: "ACCOUNT_TEMPORARILY_LOCKED", message: "Account temporarily locked" };

/** A browser whose every request comes from a new client address. */
class Botnet extends ApiClient {
  override request<T = any>(method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) {
    return super.request<T>(method, path, { ...options, headers: { "x-forwarded-for": `10.${[...randomBytes(3)].join(".")}`, ...options.headers } });
  }
}

let database: TestDatabase;
let server: TestServer | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await server?.stop();
  await database?.drop();
});

describe("a lock across a restart of a lone instance", () => {
  it("still refuses the right password from a new browser, for an account and for an address without one", async () => {
    server = await startServer({ env: ENV, database });
    const email = uniqueEmail("restart");
    const nobody = uniqueEmail("nobody");
    const owner = new Botnet(server.baseUrl);
    expect((await owner.post("/api/auth/sign-up/email", { name: "Restart", email, password: PASSWORD })).status).toBe(200);
    for (const identifier of [email, nobody]) {
      for (let i = 0; i < 10; i++) expect((await new Botnet(server.baseUrl).post("/api/auth/sign-in/email", { email: identifier, password: `wrong ${i}` })).status).toBe(401);
    }
    // The locks reach the table after the answers.
    await eventually(
      () => query<{ n: number }>(database, `SELECT count(*) AS n FROM "rateLimit" WHERE "key" LIKE 'lockout:%' AND "count" >= 10`).then((rows) => Number(rows[0].n)),
      (n) => n >= 2,
    );
    await server.stop();

    server = await startServer({ env: ENV, database });
    for (const identifier of [email, nobody]) {
      const answer = await new Botnet(server.baseUrl).post("/api/auth/sign-in/email", { email: identifier, password: PASSWORD });
      expect(answer.status, answer.text).toBe(429);
      expect(answer.body).toEqual(LOCKED);
    }
    // The owner's browser keeps its own bucket.
    const known = new Botnet(server.baseUrl);
    for (const [name, value] of owner.cookies) known.cookies.set(name, value);
    expect((await known.post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
  }, 60_000);
});
