// Password reset (issue 3): POST /forget-password and its alias /request-password-reset, the e-mailed
// GET /reset-password/{token} link, and POST /reset-password, against a real SMTP server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail, shownText } from "../support/client";
import { checkMail, expectNoNewMail, mailCount, nextMail, sleep } from "../support/mail";
import { type Mailbox } from "../support/mailbox";
import { sharedMailbox, sharedServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

const RESET = /Reset your password/;
const WAS_RESET = /password of your account was reset/;
const NEW_PASSWORD = "a brand new passphrase 42";
const REQUEST_PATHS = ["/api/auth/forget-password", "/api/auth/request-password-reset"] as const;

let mailbox: Mailbox;
let server: TestServer; // defaults: 3600 s tokens, sessions revoked on reset
let shortTtl: TestServer; // AUTH_RESET_TOKEN_TTL=1
let keepSessions: TestServer; // AUTH_REVOKE_SESSIONS_ON_PASSWORD_RESET=off

beforeAll(async () => {
  mailbox = await sharedMailbox();
  const smtp = { SMTP_URL: mailbox.url };
  [server, shortTtl, keepSessions] = await Promise.all([
    sharedServer({ env: smtp }),
    sharedServer({ env: { ...smtp, AUTH_RESET_TOKEN_TTL: "1" } }),
    sharedServer({ env: { ...smtp, AUTH_REVOKE_SESSIONS_ON_PASSWORD_RESET: "off" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server, shortTtl, keepSessions].map((s) => s?.stop()));
  await mailbox?.stop();
});

/** A user (signed in on the returned client) with the verification mail of its sign-up already received. */
async function account(target: TestServer = server) {
  const client = new ApiClient(target.baseUrl);
  const created = await signUp(client);
  await mailbox.waitFor(created.email, /Verify/);
  return { ...created, client };
}

/** Asks for a reset link and returns it and its token. */
async function requestReset(target: TestServer, email: string, body: Record<string, string> = {}, path: string = REQUEST_PATHS[0]) {
  const seen = mailCount(mailbox, email, RESET);
  const response = await new ApiClient(target.baseUrl).post(path, { email, ...body });
  expect(response.status).toBe(200);
  const mail = await nextMail(mailbox, email, RESET, seen);
  const link = new URL(mail.links[0]);
  const token = link.pathname.split("/").at(-1)!;
  return { response, mail, link: link.toString(), token };
}

const signIn = (target: TestServer, email: string, password: string) =>
  new ApiClient(target.baseUrl).post("/api/auth/sign-in/email", { email, password });

const resetPassword = (target: TestServer, body: Record<string, unknown>, query = "") =>
  new ApiClient(target.baseUrl).post(`/api/auth/reset-password${query}`, body);

describe.each(REQUEST_PATHS)("POST %s", (path) => {
  it("gives the same answer for known and unknown addresses, and mails only the known one", async () => {
    const { email } = await account();
    const unknown = uniqueEmail("nobody");
    const seen = mailCount(mailbox, email);
    const forUnknown = await new ApiClient(server.baseUrl).post(path, { email: unknown });
    const forKnown = await new ApiClient(server.baseUrl).post(path, { email });
    for (const response of [forUnknown, forKnown]) {
      expect(response.status).toBe(200);
      expect(response.body.status).toBe(true);
      expect(response.setCookies).toEqual([]);
    }
    expect(forKnown.text).toBe(forUnknown.text);
    expect(forKnown.headers.get("content-type")).toBe(forUnknown.headers.get("content-type"));
    await nextMail(mailbox, email, RESET, 0);
    await expectNoNewMail(mailbox, email, seen + 1, 200);
    expect(mailbox.to(unknown)).toEqual([]);
  });

  it("mails a link to /api/auth/reset-password/<24-character token> that names the redirectTo page and lives 1 hour", async () => {
    const { email } = await account();
    const { mail, link, token } = await requestReset(server, email, { redirectTo: "/choose-password" }, path);
    expect(mail.subject).toMatch(RESET);
    expect(checkMail(mail, server.baseUrl, "1 hour")).toBe(link);
    expect(token).toMatch(/^[A-Za-z0-9]{24}$/);
    const url = new URL(link);
    expect(url.pathname).toBe(`/api/auth/reset-password/${token}`);
    expect(url.searchParams.get("callbackURL")).toBe("/choose-password");
  });

  it("finds the account whatever the casing of the address", async () => {
    const { email } = await account();
    const { mail } = await requestReset(server, email.toUpperCase(), {}, path);
    expect(mail.to).toEqual([email]);
  });

  it("refuses a redirectTo on another site with 403 and sends nothing", async () => {
    const { email } = await account();
    const response = await new ApiClient(server.baseUrl).post(path, { email, redirectTo: "https://evil.example/steal" });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: "INVALID_REDIRECTURL", message: "Invalid redirectURL" });
    await expectNoNewMail(mailbox, email, 1, 300); // only the sign-up mail
  });
});

describe("GET /reset-password/{token}", () => {
  it("redirects to the callback carrying the token, without using it up", async () => {
    const { email } = await account();
    const { link, token } = await requestReset(server, email, { redirectTo: "/choose-password" });
    for (let i = 0; i < 2; i++) {
      const response = await new ApiClient(server.baseUrl).get(link);
      expect(response.status).toBe(302);
      expect(response.headers.get("location")).toBe(`${server.baseUrl}/choose-password?token=${token}`);
    }
    expect((await resetPassword(server, { newPassword: NEW_PASSWORD, token })).body).toEqual({ status: true });
  });

  it("goes to the product's reset page when no redirectTo was given", async () => {
    const { email } = await account();
    const { link, token } = await requestReset(server, email);
    expect(new URL(link).searchParams.get("callbackURL")).toBe("/reset-password");
    const response = await new ApiClient(server.baseUrl).get(link);
    expect(response.headers.get("location")).toBe(`${server.baseUrl}/reset-password?token=${token}`);
  });

  it("redirects with error=INVALID_TOKEN for an unknown or tampered token", async () => {
    const { email } = await account();
    const { token } = await requestReset(server, email);
    const tampered = `${token.slice(0, -1)}${token.endsWith("a") ? "b" : "a"}`;
    for (const bad of [tampered, "x".repeat(24), "short"]) {
      const response = await new ApiClient(server.baseUrl).get(`/api/auth/reset-password/${bad}?callbackURL=/choose-password`);
      expect(response.status, bad).toBe(302);
      expect(response.headers.get("location"), bad).toBe(`${server.baseUrl}/choose-password?error=INVALID_TOKEN`);
    }
    const fallback = await new ApiClient(server.baseUrl).get("/api/auth/reset-password/nope");
    expect(fallback.headers.get("location")).toBe(`${server.baseUrl}/reset-password?error=INVALID_TOKEN`);
  });

  it("refuses a callbackURL on another site with 403", async () => {
    const { email } = await account();
    const { token } = await requestReset(server, email);
    const response = await new ApiClient(server.baseUrl).get(`/api/auth/reset-password/${token}?callbackURL=${encodeURIComponent("https://evil.example/")}`);
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: "INVALID_CALLBACKURL", message: "Invalid callbackURL" });
  });
});

describe("POST /reset-password", () => {
  it("sets the new password: {status: true}, the new one signs in and the old one no longer does", async () => {
    const { email, user } = await account();
    const { token } = await requestReset(server, email);
    const response = await resetPassword(server, { newPassword: NEW_PASSWORD, token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true });
    expect((await signIn(server, email, PASSWORD)).status).toBe(401);
    const signedIn = await signIn(server, email, NEW_PASSWORD);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.id).toBe(user.id);
    expect(await count(server.database, "account", `"userId" = ?`, [user.id])).toBe(1);
  });

  it("accepts the token as a query value", async () => {
    const { email } = await account();
    const { token } = await requestReset(server, email);
    const response = await resetPassword(server, { newPassword: NEW_PASSWORD }, `?token=${token}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true });
    expect((await signIn(server, email, NEW_PASSWORD)).status).toBe(200);
  });

  it("works once: a second use answers 400 INVALID_TOKEN and changes nothing", async () => {
    const { email } = await account();
    const { token, link } = await requestReset(server, email);
    expect((await resetPassword(server, { newPassword: NEW_PASSWORD, token })).status).toBe(200);
    const again = await resetPassword(server, { newPassword: "yet another password 7", token });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    expect((await signIn(server, email, NEW_PASSWORD)).status).toBe(200);
    expect((await new ApiClient(server.baseUrl).get(link)).headers.get("location")).toBe(`${server.baseUrl}/reset-password?error=INVALID_TOKEN`);
  });

  it("answers 400 INVALID_TOKEN for a missing, unknown or tampered token", async () => {
    const { email } = await account();
    const { token } = await requestReset(server, email);
    for (const body of [{ newPassword: NEW_PASSWORD }, { newPassword: NEW_PASSWORD, token: "" }, { newPassword: NEW_PASSWORD, token: "x".repeat(24) }, { newPassword: NEW_PASSWORD, token: token.toLowerCase() === token ? token.toUpperCase() : token.toLowerCase() }]) {
      const response = await resetPassword(server, body);
      expect(response.status).toBe(400);
      expect(response.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    }
    expect((await signIn(server, email, PASSWORD)).status).toBe(200);
    expect((await resetPassword(server, { newPassword: NEW_PASSWORD, token })).status).toBe(200); // the real one still works
  });

  it("lets exactly one of two concurrent resets with the same token through", async () => {
    const { email } = await account();
    const { token } = await requestReset(server, email);
    const passwords = ["concurrent password one", "concurrent password two"];
    const responses = await Promise.all(passwords.map((newPassword) => resetPassword(server, { newPassword, token })));
    expect(responses.map((r) => r.status).sort()).toEqual([200, 400]);
    const winner = passwords[responses.findIndex((r) => r.status === 200)];
    const loser = passwords[responses.findIndex((r) => r.status === 400)];
    expect((await signIn(server, email, winner)).status).toBe(200);
    expect((await signIn(server, email, loser)).status).toBe(401);
  });

  it("refuses a too short or too long password with 400 and keeps the token usable", async () => {
    const { email } = await account();
    const { token } = await requestReset(server, email);
    const short = await resetPassword(server, { newPassword: "short", token });
    expect(short.status).toBe(400);
    expect(short.body).toEqual({ code: "PASSWORD_TOO_SHORT", message: "Password too short" });
    const long = await resetPassword(server, { newPassword: "x".repeat(129), token });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ code: "PASSWORD_TOO_LONG", message: "Password too long" });
    expect((await signIn(server, email, PASSWORD)).status).toBe(200);
    expect((await resetPassword(server, { newPassword: NEW_PASSWORD, token })).body).toEqual({ status: true });
    expect((await signIn(server, email, NEW_PASSWORD)).status).toBe(200);
  });

  it("signs every session of the user out (AUTH_REVOKE_SESSIONS_ON_PASSWORD_RESET defaults to on)", async () => {
    const { email, client, user } = await account();
    const laptop = new ApiClient(server.baseUrl);
    await laptop.post("/api/auth/sign-in/email", { email, password: PASSWORD });
    const bystander = await account(); // another user's session is untouched
    const { token } = await requestReset(server, email);
    expect((await resetPassword(server, { newPassword: NEW_PASSWORD, token })).status).toBe(200);
    expect((await client.get("/api/auth/get-session")).body).toBeNull();
    expect((await laptop.get("/api/auth/get-session")).body).toBeNull();
    expect(await count(server.database, "session", `"userId" = ?`, [user.id])).toBe(0);
    expect((await bystander.client.get("/api/auth/get-session")).body.user.id).toBe(bystander.user.id);
    // The owner is told, with what ended and the way on.
    const notice = await nextMail(mailbox, email, WAS_RESET, 0);
    expect(notice.text).toMatch(/The password of your account was reset on \d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC, and every device that was signed in was signed out\./);
    expect(notice.text).toContain("If this was not you, someone can read your email");
    expect(notice.links.some((link) => new URL(link).pathname === "/account/activity")).toBe(true);
  });

  it("keeps the sessions with AUTH_REVOKE_SESSIONS_ON_PASSWORD_RESET=off", async () => {
    const { email, client, user } = await account(keepSessions);
    // A verified account: a never-proven one's first reset also ends its sessions (ADR 028's claim).
    await query(keepSessions.database, `UPDATE "user" SET "emailVerified" = ? WHERE "id" = ?`, [keepSessions.database.kind === "sqlite" ? 1 : true, user.id]);
    const { token } = await requestReset(keepSessions, email);
    expect((await resetPassword(keepSessions, { newPassword: NEW_PASSWORD, token })).status).toBe(200);
    expect((await client.get("/api/auth/get-session")).body.user.id).toBe(user.id);
    expect(await count(keepSessions.database, "session", `"userId" = ?`, [user.id])).toBe(1);
    expect((await signIn(keepSessions, email, NEW_PASSWORD)).status).toBe(200);
    const notice = await nextMail(mailbox, email, WAS_RESET, 0);
    expect(notice.text).toContain("The password of your account was reset on ");
    expect(shownText(notice.text)).not.toContain("signed out");
  });

  it("ends the user's older reset links once one was used", async () => {
    const { email, user } = await account();
    const older = await requestReset(server, email);
    const newer = await requestReset(server, email);
    expect(older.token).not.toBe(newer.token);
    expect(await count(server.database, "verification", `"identifier" LIKE 'reset-password:%' AND "value" LIKE ?`, [`%${user.id}%`])).toBe(2);
    expect((await resetPassword(server, { newPassword: NEW_PASSWORD, token: newer.token })).status).toBe(200);
    const stale = await resetPassword(server, { newPassword: "an older link's password", token: older.token });
    expect(stale.status).toBe(400);
    expect(stale.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    expect((await new ApiClient(server.baseUrl).get(older.link)).headers.get("location")).toBe(`${server.baseUrl}/reset-password?error=INVALID_TOKEN`);
    expect(await count(server.database, "verification", `"identifier" LIKE 'reset-password:%' AND "value" LIKE ?`, [`%${user.id}%`])).toBe(0);
    expect((await signIn(server, email, NEW_PASSWORD)).status).toBe(200);
  });

  it("stores only a hash of the token", async () => {
    const { email } = await account();
    const { token } = await requestReset(server, email);
    expect(await count(server.database, "verification", `"identifier" LIKE ? OR "value" LIKE ?`, [`%${token}%`, `%${token}%`])).toBe(0);
  });
});

describe("AUTH_RESET_TOKEN_TTL", () => {
  it("expires the link after the configured lifetime", async () => {
    const { email } = await account(shortTtl);
    const { mail, link, token } = await requestReset(shortTtl, email);
    checkMail(mail, shortTtl.baseUrl, "1 second");
    await sleep(1_200);
    expect((await new ApiClient(shortTtl.baseUrl).get(link)).headers.get("location")).toBe(`${shortTtl.baseUrl}/reset-password?error=INVALID_TOKEN`);
    const response = await resetPassword(shortTtl, { newPassword: NEW_PASSWORD, token });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    expect((await signIn(shortTtl, email, PASSWORD)).status).toBe(200);
  });
});
