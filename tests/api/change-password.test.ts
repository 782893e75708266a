// POST /change-password (issue 3): {token, user}, optional sign-out of every other device, and its errors.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp } from "../support/client";
import { COOKIE, cloneClient, setCookie } from "../support/cookies";
import { sharedServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

const CHANGE = "/api/auth/change-password";
const NEW_PASSWORD = "a different passphrase 99";

let server: TestServer;
beforeAll(async () => {
  server = await sharedServer({ env: { AUTH_EMAIL_VERIFICATION: "off" }, mail: true });
});
afterAll(async () => {
  await server?.stop();
});

async function signedIn() {
  const client = new ApiClient(server.baseUrl);
  const created = await signUp(client);
  return { ...created, client };
}

async function signInElsewhere(email: string, password = PASSWORD) {
  const client = new ApiClient(server.baseUrl);
  const response = await client.post("/api/auth/sign-in/email", { email, password });
  expect(response.status).toBe(200);
  return client;
}

const signInStatus = async (email: string, password: string) =>
  (await new ApiClient(server.baseUrl).post("/api/auth/sign-in/email", { email, password })).status;

describe("POST /change-password", () => {
  it("changes the password and answers {token: null, user}, leaving other sessions signed in", async () => {
    const { client, email, user } = await signedIn();
    const phone = await signInElsewhere(email);
    const response = await client.post(CHANGE, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["token", "user"]);
    expect(response.body.token).toBeNull();
    expect(response.body.user).toMatchObject({ id: user.id, email, emailVerified: false });
    expect(setCookie(response, COOKIE.sessionToken)).toBeUndefined();
    expect((await client.get("/api/auth/get-session")).body.user.id).toBe(user.id);
    expect((await phone.get("/api/auth/get-session")).body.user.id).toBe(user.id);
    expect(await signInStatus(email, PASSWORD)).toBe(401);
    expect(await signInStatus(email, NEW_PASSWORD)).toBe(200);
  });

  it("with revokeOtherSessions: answers a new token, signs every other client out and keeps this one signed in", async () => {
    const { client, email, user } = await signedIn();
    const oldToken = (await client.get("/api/auth/get-session")).body.session.token;
    const staleCopy = cloneClient(client); // this client's cookie as it was before the change
    const phone = await signInElsewhere(email);
    const laptop = await signInElsewhere(email);
    expect(await count(server.database, "session", `"userId" = ?`, [user.id])).toBe(3);

    const response = await client.post(CHANGE, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, revokeOtherSessions: true });
    expect(response.status).toBe(200);
    expect(response.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(response.body.token).not.toBe(oldToken);
    expect(response.body.user).toMatchObject({ id: user.id, email });
    expect(setCookie(response, COOKIE.sessionToken)?.value).toBeTruthy();

    const mine = await client.get("/api/auth/get-session");
    expect(mine.body.session.token).toBe(response.body.token);
    expect(mine.body.user.id).toBe(user.id);
    for (const other of [phone, laptop, staleCopy]) expect((await other.get("/api/auth/get-session")).body).toBeNull();
    expect(await count(server.database, "session", `"userId" = ?`, [user.id])).toBe(1);
    expect(await signInStatus(email, NEW_PASSWORD)).toBe(200);
  });

  it("with revokeOtherSessions: false behaves like without it", async () => {
    const { client, email } = await signedIn();
    const phone = await signInElsewhere(email);
    const response = await client.post(CHANGE, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, revokeOtherSessions: false });
    expect(response.status).toBe(200);
    expect(response.body.token).toBeNull();
    expect((await phone.get("/api/auth/get-session")).body).not.toBeNull();
  });

  it("answers 400 INVALID_PASSWORD for a wrong current password and changes nothing", async () => {
    const { client, email, user } = await signedIn();
    const phone = await signInElsewhere(email);
    const response = await client.post(CHANGE, { currentPassword: `${PASSWORD}?`, newPassword: NEW_PASSWORD, revokeOtherSessions: true });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
    expect(setCookie(response, COOKIE.sessionToken)).toBeUndefined();
    expect((await phone.get("/api/auth/get-session")).body.user.id).toBe(user.id);
    expect(await signInStatus(email, PASSWORD)).toBe(200);
    expect(await signInStatus(email, NEW_PASSWORD)).toBe(401);
  });

  it("answers 400 for a too short or too long new password and changes nothing", async () => {
    const { client, email } = await signedIn();
    const short = await client.post(CHANGE, { currentPassword: PASSWORD, newPassword: "1234567" });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ code: "PASSWORD_TOO_SHORT", message: "Password too short" });
    const long = await client.post(CHANGE, { currentPassword: PASSWORD, newPassword: "y".repeat(129) });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ code: "PASSWORD_TOO_LONG", message: "Password too long" });
    expect(await signInStatus(email, PASSWORD)).toBe(200);
  });

  it("ends reset links requested before the change, which would otherwise undo it", async () => {
    const { client, email, user } = await signedIn();
    expect((await new ApiClient(server.baseUrl).post("/api/auth/request-password-reset", { email })).status).toBe(200);
    const resetRows = () => count(server.database, "verification", `"identifier" LIKE 'reset-password:%' AND "value" LIKE ?`, [`%${user.id}%`]);
    const deadline = Date.now() + 5_000;
    while ((await resetRows()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(await resetRows()).toBeGreaterThan(0);
    expect((await client.post(CHANGE, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(200);
    expect(await resetRows()).toBe(0);
  });

  it("answers 401 when signed out", async () => {
    const response = await new ApiClient(server.baseUrl).post(CHANGE, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("answers 400 CREDENTIAL_ACCOUNT_NOT_FOUND for a user without a password", async () => {
    const { client, user } = await signedIn();
    await query(server.database, `DELETE FROM "account" WHERE "userId" = ?`, [user.id]); // as after a social sign-up
    const response = await client.post(CHANGE, { currentPassword: PASSWORD, newPassword: NEW_PASSWORD });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "CREDENTIAL_ACCOUNT_NOT_FOUND", message: "Credential account not found" });
  });

  it("answers 400 VALIDATION_ERROR when a field is missing", async () => {
    const { client } = await signedIn();
    const response = await client.post(CHANGE, { newPassword: NEW_PASSWORD });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
    expect(response.body.message).toContain("currentPassword");
  });
});
