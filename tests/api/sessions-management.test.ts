// Sign-out, listing and revoking sessions (seen from this instance and from a second one on the same database),
// and profile updates.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, eventually, PASSWORD, signUp } from "../support/client";
import { COOKIE, clears, cloneClient } from "../support/cookies";
import { sharedServer, startServer, type TestServer } from "../support/server";
import { count } from "../support/sql";

const GET_SESSION = "/api/auth/get-session";

let server: TestServer;
/** A second instance on the first one's database. */
let second: TestServer;
beforeAll(async () => {
  server = await sharedServer();
  second = await startServer({ database: server.database });
});
afterAll(async () => {
  await second?.stop();
  await server?.stop();
});

/** One user signed in on `n` clients (devices). */
async function devices(n: number, s: TestServer = server) {
  const firstClient = new ApiClient(s.baseUrl);
  const first = await signUp(firstClient);
  const clients = [{ client: firstClient, token: first.response.body.token as string }];
  for (let i = 1; i < n; i++) {
    const client = new ApiClient(s.baseUrl);
    const response = await client.post("/api/auth/sign-in/email", { email: first.email, password: PASSWORD });
    expect(response.status).toBe(200);
    clients.push({ client, token: response.body.token });
  }
  return { ...first, clients };
}

const sessionOf = async (client: ApiClient) => (await client.get(GET_SESSION)).body;

describe("sign-out", () => {
  it("answers {success: true}, clears the cookies and deletes the session", async () => {
    const { clients } = await devices(1);
    const [{ client, token }] = clients;
    const stale = cloneClient(client);
    const response = await client.post("/api/auth/sign-out");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    for (const name of [COOKIE.sessionToken, COOKIE.sessionData, COOKIE.dontRemember]) expect(clears(response, name), name).toBe(true);
    // Only the device and language cookies stay, by design: the next sign-in here is not "new" (ADR 039), and
    // signing out does not switch the pages' language under the person (ADR 072).
    expect([...client.cookies.keys()].sort()).toEqual(["latchkey.device", "latchkey.language"]);
    expect(await count(server.database, "session", `"token" = ?`, [token])).toBe(0);
    // The old cookie, replayed, no longer works.
    expect(await sessionOf(stale)).toBeNull();
    expect((await stale.get("/api/auth/list-sessions")).status).toBe(401);
  });

  it("signs out only the device it is called from", async () => {
    const { clients } = await devices(2);
    await clients[0].client.post("/api/auth/sign-out");
    expect((await sessionOf(clients[1].client)).session.token).toBe(clients[1].token);
  });

  it("answers {success: true} without a session", async () => {
    const response = await new ApiClient(server.baseUrl).post("/api/auth/sign-out");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
  });
});

describe("session management requires a session", () => {
  it("answers 401 UNAUTHORIZED without a session cookie or with a dead one", async () => {
    const anonymous = new ApiClient(server.baseUrl);
    const dead = new ApiClient(server.baseUrl);
    dead.cookies.set(COOKIE.sessionToken, "x".repeat(32) + ".invalid");
    for (const client of [anonymous, dead]) {
      const calls = [
        () => client.get("/api/auth/list-sessions"),
        () => client.post("/api/auth/revoke-session", { token: "x".repeat(32) }),
        () => client.post("/api/auth/revoke-sessions"),
        () => client.post("/api/auth/revoke-other-sessions"),
        () => client.post("/api/auth/update-user", { name: "Nobody" }),
      ];
      for (const call of calls) {
        const response = await call();
        expect(response.status, response.text).toBe(401);
        expect(response.body).toEqual({ code: "UNAUTHORIZED", message: "Unauthorized" });
      }
    }
  });
});

describe("listing and revoking sessions", () => {
  it("lists the user's own unexpired sessions, newest first", async () => {
    const { clients, user } = await devices(3);
    const stranger = await devices(1);
    const response = await clients[0].client.get("/api/auth/list-sessions");
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    const tokens = response.body.map((s: { token: string }) => s.token);
    expect([...tokens].sort()).toEqual(clients.map((c) => c.token).sort());
    expect(tokens).not.toContain(stranger.clients[0].token);
    for (const session of response.body) {
      expect(session.userId).toBe(user.id);
      for (const field of ["id", "token", "expiresAt", "createdAt", "updatedAt", "ipAddress", "userAgent"]) expect(session).toHaveProperty(field);
    }
  });

  it("revoke-session {token} ends that one session and answers {status: true}", async () => {
    const { clients } = await devices(3);
    const response = await clients[0].client.post("/api/auth/revoke-session", { token: clients[1].token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true });
    expect(await sessionOf(clients[1].client)).toBeNull();
    expect((await sessionOf(clients[0].client)).session.token).toBe(clients[0].token);
    expect((await sessionOf(clients[2].client)).session.token).toBe(clients[2].token);
  });

  it("revoke-session on the current session signs this device out", async () => {
    const { clients } = await devices(1);
    const response = await clients[0].client.post("/api/auth/revoke-session", { token: clients[0].token });
    expect(response.body).toEqual({ status: true });
    expect(clears(response, COOKIE.sessionToken)).toBe(true);
    expect(await count(server.database, "session", `"token" = ?`, [clients[0].token])).toBe(0);
  });

  it("revoking another user's token changes nothing", async () => {
    const attacker = await devices(1);
    const victim = await devices(1);
    const response = await attacker.clients[0].client.post("/api/auth/revoke-session", { token: victim.clients[0].token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true });
    expect((await sessionOf(victim.clients[0].client)).session.token).toBe(victim.clients[0].token);
    expect(await count(server.database, "session", `"token" = ?`, [victim.clients[0].token])).toBe(1);
  });

  it("revoke-session refuses a body without a token", async () => {
    const { clients } = await devices(1);
    for (const body of [{}, { token: "" }, { token: 42 }]) {
      const response = await clients[0].client.post("/api/auth/revoke-session", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.code).toBe("VALIDATION_ERROR");
    }
  });

  it("revoke-other-sessions keeps only the current session", async () => {
    const { clients } = await devices(3);
    const stranger = await devices(1);
    const response = await clients[1].client.post("/api/auth/revoke-other-sessions");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true });
    expect(await sessionOf(clients[0].client)).toBeNull();
    expect(await sessionOf(clients[2].client)).toBeNull();
    expect((await sessionOf(clients[1].client)).session.token).toBe(clients[1].token);
    expect((await clients[1].client.get("/api/auth/list-sessions")).body).toHaveLength(1);
    expect(await sessionOf(stranger.clients[0].client)).not.toBeNull();
  });

  it("revoke-sessions ends every session of the user, this one included", async () => {
    const { clients, user } = await devices(3);
    const stranger = await devices(1);
    const response = await clients[0].client.post("/api/auth/revoke-sessions");
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true });
    expect(clears(response, COOKIE.sessionToken)).toBe(true);
    expect(await count(server.database, "session", `"userId" = ?`, [user.id])).toBe(0);
    for (const { client } of clients) expect(await sessionOf(client)).toBeNull();
    expect(await sessionOf(stranger.clients[0].client)).not.toBeNull();
  });
});

describe("a second instance on the same database", () => {
  it("accepts the first instance's sessions and sees their revocation as soon as the change feed brings it", async () => {
    const { clients } = await devices(3);
    const onSecond = (i: number) => cloneClient(clients[i].client, second.baseUrl, second.origin);
    for (let i = 0; i < 3; i++) expect((await sessionOf(onSecond(i)))?.session.token).toBe(clients[i].token);

    // Revoke one session on the first instance: the second no longer accepts its cookie.
    await clients[0].client.post("/api/auth/revoke-session", { token: clients[1].token });
    const gone = (value: unknown) => value === null;
    expect(await eventually(() => sessionOf(onSecond(1)), gone)).toBeNull();
    expect((await onSecond(1).get("/api/auth/list-sessions")).status).toBe(401);

    // Sign out on the first instance: same.
    const replay = onSecond(2);
    await clients[2].client.post("/api/auth/sign-out");
    expect(await eventually(() => sessionOf(replay), gone)).toBeNull();

    // And the other way round: revoke everything on the second, the first sees it.
    const survivor = onSecond(0);
    expect((await survivor.post("/api/auth/revoke-sessions")).body).toEqual({ status: true });
    expect(await eventually(() => sessionOf(clients[0].client), gone)).toBeNull();
  });
});

describe("update-user", () => {
  it("changes name and image, answers {status: true}, and get-session shows it", async () => {
    const { clients, user } = await devices(1);
    const { client } = clients[0];
    const response = await client.post("/api/auth/update-user", { name: "New Name", image: "https://images.example.com/me.png" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true });
    const { user: updated } = await sessionOf(client);
    expect(updated).toMatchObject({ id: user.id, email: user.email, name: "New Name", image: "https://images.example.com/me.png" });
    expect(new Date(updated.updatedAt).getTime()).toBeGreaterThanOrEqual(new Date(user.updatedAt).getTime());

    // Either field alone; an empty image removes it.
    expect((await client.post("/api/auth/update-user", { image: "" })).body).toEqual({ status: true });
    expect((await sessionOf(client)).user).toMatchObject({ name: "New Name", image: null });
  });

  it("refuses an e-mail change with 400 EMAIL_CAN_NOT_BE_UPDATED and changes nothing", async () => {
    const { clients, user } = await devices(1);
    const response = await clients[0].client.post("/api/auth/update-user", { email: "other@example.com", name: "Sneaky" });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "EMAIL_CAN_NOT_BE_UPDATED", message: "Email can not be updated" });
    expect((await sessionOf(clients[0].client)).user).toMatchObject({ email: user.email, name: user.name });
  });

  it("ignores fields a client may not change", async () => {
    const { clients } = await devices(1);
    const response = await clients[0].client.post("/api/auth/update-user", { emailVerified: true, twoFactorEnabled: true, name: "Only Name" });
    expect(response.body).toEqual({ status: true });
    expect((await sessionOf(clients[0].client)).user).toMatchObject({ name: "Only Name", emailVerified: false, twoFactorEnabled: false });
    const nothingElse = await clients[0].client.post("/api/auth/update-user", { emailVerified: true });
    expect(nothingElse.status).toBe(400);
    expect(nothingElse.body.code).toBe("NO_FIELDS_TO_UPDATE");
  });

  it("refuses an empty update and wrong types with 400", async () => {
    const { clients } = await devices(1);
    const empty = await clients[0].client.post("/api/auth/update-user", {});
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ code: "NO_FIELDS_TO_UPDATE", message: "No fields to update" });
    for (const body of [{ name: 42 }, { image: ["x"] }, [] as unknown]) {
      const response = await clients[0].client.post("/api/auth/update-user", body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(typeof response.body.code).toBe("string");
    }
  });
});
