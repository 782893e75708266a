// The in-process session cache (on by default) never shows what a write has changed: each write path below is
// made after the session was read (and so cached) on another device, and the next read sees the change.
// docs/decisions/024-session-cache-and-invalidation.md.
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { cloneClient } from "../support/cookies";
import { actionLink, Mailbox } from "../support/mailbox";
import { startServer, type TestServer } from "../support/server";
import { query } from "../support/sql";
import { enableTwoFactor } from "../support/two-factor";

const GET_SESSION = "/api/auth/get-session";
const ORG = "/api/auth/organization";

let mailbox: Mailbox;
let server: TestServer;
beforeAll(async () => {
  mailbox = await new Mailbox().start();
  server = await startServer({ env: { SMTP_URL: mailbox.url } });
  // The cache starts listening on the first session read and is used once the listener is connected.
  const warm = new ApiClient(server.baseUrl);
  await cacheInUse(warm, (await signUp(warm)).user.id);
});

/**
 * Waits until the server answers session reads from its cache: on PostgreSQL it keeps nothing until its LISTEN
 * connection is up, which a loaded machine may take a while to open. Seen, rather than waited for, as a change
 * nobody announced staying unseen. On SQLite the cache is in use from the start (any commit empties it).
 */
async function cacheInUse(client: ApiClient, userId: string) {
  if (server.database.kind !== "postgres") return;
  const deadline = Date.now() + 30_000;
  for (let attempt = 0; ; attempt++) {
    await client.get(GET_SESSION);
    await client.get(GET_SESSION);
    await query(server.database, `UPDATE "user" SET "name" = ? WHERE "id" = ?`, [`Warming ${attempt}`, userId], { announce: false });
    if ((await client.get(GET_SESSION)).body.user.name !== `Warming ${attempt}`) return;
    if (Date.now() > deadline) throw new Error("the server did not answer from its session cache within 30 s");
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
afterAll(async () => {
  await server?.stop();
  await mailbox?.stop();
});

/** Reads the session twice, so it is certainly in the cache when the test's write comes. */
async function cachedSession(client: ApiClient) {
  await client.get(GET_SESSION);
  const response = await client.get(GET_SESSION);
  expect(response.status).toBe(200);
  return response.body;
}

/** One user signed in on two devices, both sessions read (and cached). */
async function twoDevices() {
  const a = new ApiClient(server.baseUrl);
  const created = await signUp(a);
  const b = new ApiClient(server.baseUrl);
  expect((await b.post("/api/auth/sign-in/email", { email: created.email, password: PASSWORD })).status).toBe(200);
  const [sessionA, sessionB] = [await cachedSession(a), await cachedSession(b)];
  expect(sessionA.user.id).toBe(sessionB.user.id);
  return { ...created, a, b, tokenA: sessionA.session.token as string, tokenB: sessionB.session.token as string };
}

const read = async (client: ApiClient) => (await client.get(GET_SESSION)).body;

describe("the cache is in use", () => {
  it("serves repeated reads of one session from memory", async () => {
    const { b, tokenB, user } = await twoDevices();
    // A change made behind the application's back that nobody announces (PostgreSQL: with triggers off). On
    // PostgreSQL the cached copy is still served; on SQLite any commit by another connection empties the cache.
    await query(server.database, `UPDATE "user" SET "name" = ? WHERE "id" = ?`, ["Changed Outside", user.id], { announce: false });
    const seen = await read(b);
    expect(seen.session.token).toBe(tokenB);
    expect(seen.user.name).toBe(server.database.kind === "postgres" ? "Test User" : "Changed Outside");
  });

  it("answers a read from memory (ADR 054) byte for byte as the read from the database, with and without Better Auth's query", async () => {
    const { a, b } = await twoDevices();
    for (const search of ["", "?disableCookieCache=true"]) {
      // A write to the user empties the cache for both sessions: b's next read is the handler's, the one after from memory.
      expect((await a.post("/api/auth/update-user", { name: `Renamed ${search.length}` })).status).toBe(200);
      const fromDatabase = await rawGet(`${GET_SESSION}${search}`, b.cookieHeader());
      const fromMemory = await rawGet(`${GET_SESSION}${search}`, b.cookieHeader());
      expect(JSON.parse(fromDatabase.body).user.name).toBe(`Renamed ${search.length}`);
      // Each answer carries its own request id (issue 40); everything else is the same, byte for byte.
      expect(fromMemory.headers["x-request-id"]).toEqual(expect.any(String));
      expect(fromMemory.headers["x-request-id"]).not.toBe(fromDatabase.headers["x-request-id"]);
      const withoutRequestId = (answer: typeof fromMemory) => ({ ...answer, headers: { ...answer.headers, "x-request-id": undefined } });
      expect(withoutRequestId(fromMemory)).toEqual(withoutRequestId(fromDatabase));
      expect(fromMemory.headers["set-cookie"]).toBeUndefined();
    }
  });
});

/** Status, headers as sent (but the date) and body, read with node:http so nothing is normalised on the way. */
function rawGet(path: string, cookie: string): Promise<{ status?: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${server.baseUrl}${path}`, { headers: { cookie } }, (response) => {
        let body = "";
        response.setEncoding("utf8");
        response.on("data", (chunk) => (body += chunk));
        response.on("end", () => {
          const { date: _date, ...headers } = response.headers;
          resolve({ status: response.statusCode, headers, body });
        });
      })
      .on("error", reject);
  });
}

describe("a change made outside the application (SQL by hand) is seen within 100 ms", () => {
  // SQLite: the file's data_version, checked at most once a millisecond. PostgreSQL: the database's triggers
  // NOTIFY every committed change to session, user and organization rows.
  // Measured from the statement's return (just after its commit): every read that starts later than `ms` must see
  // it, however long a loaded machine takes to answer the reads before.
  async function seenWithin(client: ApiClient, check: (body: any) => boolean, ms = 100) {
    const deadline = Date.now() + ms;
    for (;;) {
      const started = Date.now();
      if (check(await read(client))) return true;
      if (started > deadline) return false;
    }
  }

  it("a user renamed, a session deleted", async () => {
    const { a, b, tokenB, user } = await twoDevices();
    await query(server.database, `UPDATE "user" SET "name" = ? WHERE "id" = ?`, ["Renamed By Hand", user.id]);
    expect(await seenWithin(a, (body) => body?.user?.name === "Renamed By Hand")).toBe(true);
    await query(server.database, `DELETE FROM "session" WHERE "token" = ?`, [tokenB]);
    expect(await seenWithin(b, (body) => body === null)).toBe(true);
    expect((await read(a)).user.name).toBe("Renamed By Hand");
  });
});

describe("every write that changes a session or its user is seen by the next read", () => {
  it("sign-out", async () => {
    const { a } = await twoDevices();
    const replay = cloneClient(a);
    expect((await a.post("/api/auth/sign-out")).status).toBe(200);
    expect(await read(replay)).toBeNull();
  });

  it("revoke-session", async () => {
    const { a, b, tokenB } = await twoDevices();
    expect((await a.post("/api/auth/revoke-session", { token: tokenB })).status).toBe(200);
    expect(await read(b)).toBeNull();
    expect((await read(a)).user).toBeTruthy();
  });

  it("revoke-sessions", async () => {
    const { a, b } = await twoDevices();
    const replayA = cloneClient(a);
    expect((await a.post("/api/auth/revoke-sessions")).status).toBe(200);
    expect(await read(b)).toBeNull();
    expect(await read(replayA)).toBeNull();
  });

  it("revoke-other-sessions", async () => {
    const { a, b, tokenA } = await twoDevices();
    expect((await a.post("/api/auth/revoke-other-sessions")).status).toBe(200);
    expect(await read(b)).toBeNull();
    expect((await read(a)).session.token).toBe(tokenA);
  });

  it("change-password with revokeOtherSessions", async () => {
    const { a, b } = await twoDevices();
    const response = await a.post("/api/auth/change-password", { currentPassword: PASSWORD, newPassword: "another long password", revokeOtherSessions: true });
    expect(response.status).toBe(200);
    expect(await read(b)).toBeNull();
    expect((await read(a)).user).toBeTruthy();
  });

  it("update-user", async () => {
    const { a, b } = await twoDevices();
    expect((await a.post("/api/auth/update-user", { name: "New Name", image: "https://example.com/me.png" })).status).toBe(200);
    const seen = await read(b);
    expect(seen.user.name).toBe("New Name");
    expect(seen.user.image).toBe("https://example.com/me.png");
  });

  it("verify-email and change-email", async () => {
    const { a, b, email } = await twoDevices();
    expect((await read(b)).user.emailVerified).toBe(false);
    const verify = actionLink(await mailbox.waitFor(email, /Verify your email address/));
    expect((await a.get(verify)).status).toBe(302);
    expect((await read(b)).user.emailVerified).toBe(true);
    // Verified now: the change waits for a confirmation from the old address, then the new one's link.
    const newEmail = uniqueEmail("moved");
    expect((await a.post("/api/auth/change-email", { newEmail })).status).toBe(200);
    await cachedSession(b);
    const confirm = actionLink(await mailbox.waitFor(email, /Confirm your new email address/));
    expect((await a.get(confirm)).status).toBe(302);
    const moved = await read(b);
    expect(moved.user.email).toBe(newEmail);
    expect(moved.user.emailVerified).toBe(false);
  });

  it("delete-user", async () => {
    const { a, b } = await twoDevices();
    expect((await a.post("/api/auth/delete-user", { password: PASSWORD })).status).toBe(200);
    expect(await read(b)).toBeNull();
  });

  it("two-factor enable", async () => {
    const { a, b } = await twoDevices();
    expect((await read(b)).user.twoFactorEnabled).toBe(false);
    await enableTwoFactor(a);
    expect((await read(b)).user.twoFactorEnabled).toBe(true);
  });

  it("organization set-active, delete", async () => {
    const { a } = await twoDevices();
    const slug = `cache-${Date.now().toString(36)}`;
    const created = await a.post(`${ORG}/create`, { name: "Cache Team", slug, keepCurrentActiveOrganization: true });
    expect(created.status).toBe(200);
    expect((await cachedSession(a)).session.activeOrganizationId ?? null).toBeNull();
    expect((await a.post(`${ORG}/set-active`, { organizationId: created.body.id })).status).toBe(200);
    expect((await read(a)).session.activeOrganizationId).toBe(created.body.id);
    await cachedSession(a);
    expect((await a.post(`${ORG}/delete`, { organizationId: created.body.id })).status).toBe(200);
    expect((await read(a)).session.activeOrganizationId ?? null).toBeNull();
  });

  it("organization member removal clears the removed member's active organization", async () => {
    const owner = await twoDevices();
    const member = await twoDevices();
    const created = await owner.a.post(`${ORG}/create`, { name: "Cache Team", slug: `cache-m-${Date.now().toString(36)}` });
    expect(created.status).toBe(200);
    await query(server.database, `INSERT INTO "member" ("id", "organizationId", "userId", "role", "createdAt") VALUES (?, ?, ?, ?, ?)`, [
      `m-${Math.random().toString(36).slice(2)}`,
      created.body.id,
      member.user.id,
      "member",
      server.database.kind === "sqlite" ? Date.now() : new Date(),
    ]);
    expect((await member.a.post(`${ORG}/set-active`, { organizationId: created.body.id })).status).toBe(200);
    expect((await cachedSession(member.a)).session.activeOrganizationId).toBe(created.body.id);
    const removed = await owner.a.post(`${ORG}/remove-member`, { memberIdOrEmail: member.email, organizationId: created.body.id });
    expect(removed.status, removed.text).toBe(200);
    expect((await read(member.a)).session.activeOrganizationId ?? null).toBeNull();
  });
});

describe("AUTH_SESSION_CACHE=off", () => {
  it("reads the database every time", async () => {
    const off = await startServer({ env: { AUTH_SESSION_CACHE: "off" } });
    try {
      const client = new ApiClient(off.baseUrl);
      const { user } = await signUp(client);
      await cachedSession(client);
      await query(off.database, `UPDATE "user" SET "name" = ? WHERE "id" = ?`, ["Changed Outside", user.id], { announce: false });
      expect((await read(client)).user.name).toBe("Changed Outside");
    } finally {
      await off.stop();
    }
  });
});
