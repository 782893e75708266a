// New-device verification (issue 39 §3, ADR 058): with AUTH_NEW_DEVICE_VERIFICATION=on, a right password from a
// browser the account has not signed in from (no two-factor, verified address) starts no session. It answers
// Better Auth's two-factor redirect with only "otp", mails "Confirm it's you" with a code at once, and
// /two-factor/verify-otp finishes it; the browser is known from then on. Not asked: known browsers, e-mailed codes,
// accounts with two-factor (their second step), unverified addresses, and nothing at all with the setting off.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, eventually, signUp, shownText } from "../support/client";
import { setCookie } from "../support/cookies";
import { mailCount, nextMail, sleep } from "../support/mail";
import type { Mailbox } from "../support/mailbox";
import { sharedServer, useServerWithMailbox, type TestServer } from "../support/server";
import { query } from "../support/sql";
import { TWO_FACTOR_REDIRECT, enableTwoFactor } from "../support/two-factor";
import { SoftAuthenticator } from "../support/webauthn";

const TF = "/api/auth/two-factor";
const CHECK = { twoFactorRedirect: true, twoFactorMethods: ["otp"], newDeviceVerification: true };
const SUBJECT = /Confirm it's you/;
const FORM = { "content-type": "application/x-www-form-urlencoded" };

let server: TestServer;
let mailbox: Mailbox;
useServerWithMailbox({ AUTH_EMAIL_VERIFICATION: "off", AUTH_NEW_DEVICE_VERIFICATION: "on" }, (running) => ({ server, mailbox } = running));

const browser = (target = server) => new ApiClient(target.baseUrl);
const signIn = (client: ApiClient, email: string) => client.post("/api/auth/sign-in/email", { email, password: PASSWORD });
const markVerified = (target: TestServer, email: string) => query(target.database, `UPDATE "user" SET "emailVerified" = (1=1) WHERE "email" = ?`, [email]);
const codeOf = (text: string) => text.match(/Your code: (\d{6})/)![1];

/** An account made (and so known) in its owner's browser, with its address verified. */
async function verifiedAccount(target = server, overrides: Record<string, string> = {}) {
  const owner = browser(target);
  const created = await signUp(owner, overrides as never);
  await markVerified(target, created.email);
  return { ...created, owner };
}

async function eventsOf(userId: string, type: string) {
  const rows = await query<{ details: string }>(server.database, `SELECT "details" FROM "securityEvent" WHERE "userId" = ? AND "type" = ? ORDER BY "createdAt", "id"`, [userId, type]);
  return rows.map((row) => JSON.parse(row.details));
}

/** A new browser's right password: the check's answer, its cookie, and the code it mailed. */
async function challenged(email: string, client = browser()) {
  const seen = mailCount(mailbox, email, SUBJECT);
  const response = await signIn(client, email);
  expect(response.status).toBe(200);
  expect(response.body).toEqual(CHECK);
  const mail = await nextMail(mailbox, email, SUBJECT, seen);
  return { client, response, mail, code: codeOf(mail.text) };
}

describe("new-device verification: the step through the API", () => {
  it("a right password from a new browser: the two-factor redirect, its cookie, the mail and event; no session", async () => {
    const { email, user } = await verifiedAccount();
    const { client, response, mail } = await challenged(email);
    expect(setCookie(response, "latchkey.two_factor")?.attributes.httponly).toBe(true);
    expect(response.body.token).toBeUndefined();
    expect((await client.get("/api/auth/get-session")).body).toBeNull();
    expect(mail.subject).toContain("Confirm it's you");
    expect(mail.text).toMatch(/IP address/);
    expect(mail.text).toContain("Times in this message are in UTC (Coordinated Universal Time).");
    expect(mail.text).toMatch(/change your password/);
    expect(mail.html).toContain(codeOf(mail.text));
    expect(await eventsOf(user.id, "sign_in_challenged")).toEqual([{ reason: "new_device", method: "password" }]);
  });

  it("a wrong code is 401 and a sign_in_failed; the right one signs in, marked new and verified; then the browser is known", async () => {
    const { email, user } = await verifiedAccount();
    const { client, code } = await challenged(email);
    const wrong = code === "000000" ? "111111" : "000000";
    const refused = await client.post(`${TF}/verify-otp`, { code: wrong });
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe("INVALID_TWO_FACTOR_AUTHENTICATION");
    await eventually(() => eventsOf(user.id, "sign_in_failed"), (events) => events.length === 1);
    expect(await eventsOf(user.id, "sign_in_failed")).toEqual([{ method: "new_device" }]);

    const done = await client.post(`${TF}/verify-otp`, { code });
    expect(done.status).toBe(200);
    expect(done.body.user.email).toBe(email);
    expect((await client.get("/api/auth/get-session")).body.user.email).toBe(email);
    const signIns = await eventsOf(user.id, "sign_in");
    expect(signIns.at(-1)).toEqual({ method: "password", twoFactor: false, newDevice: true, deviceVerified: true });
    // The code's mail told them of this browser: no second "New sign-in" mail.
    await sleep(600);
    expect(mailCount(mailbox, email, /New sign-in/)).toBe(0);

    // Known from then on: signed out and in again, no code is asked.
    await client.post("/api/auth/sign-out");
    const seen = mailCount(mailbox, email, SUBJECT);
    const again = await signIn(client, email);
    expect(again.status).toBe(200);
    expect(again.body.token).toEqual(expect.any(String));
    expect(again.body.twoFactorRedirect).toBeUndefined();
    expect(mailCount(mailbox, email, SUBJECT)).toBe(seen);
  });

  it("send-otp mails a fresh code, which replaces the first", async () => {
    const { email } = await verifiedAccount();
    const { client, code: first } = await challenged(email);
    const seen = mailCount(mailbox, email, SUBJECT);
    expect((await client.post(`${TF}/send-otp`, {})).body).toEqual({ status: true });
    const second = codeOf((await nextMail(mailbox, email, SUBJECT, seen)).text);
    if (second !== first) expect((await client.post(`${TF}/verify-otp`, { code: first })).status).toBe(401);
    expect((await client.post(`${TF}/verify-otp`, { code: second })).status).toBe(200);
  });

  it("the fifth wrong code ends the attempt; the authenticator app and backup codes are not ways through", async () => {
    const { email } = await verifiedAccount();
    const { client, code } = await challenged(email);
    const totp = await client.post(`${TF}/verify-totp`, { code: "123456" });
    expect(totp.status).toBe(400);
    expect(totp.body.code).toBe("TWO_FACTOR_ISNT_ENABLED");
    expect((await client.post(`${TF}/verify-backup-code`, { code: "aaaaa-bbbbb" })).body.code).toBe("TWO_FACTOR_ISNT_ENABLED");
    const wrong = code === "000000" ? "111111" : "000000";
    for (let i = 0; i < 5; i++) expect((await client.post(`${TF}/verify-otp`, { code: wrong })).body.code).toBe("INVALID_TWO_FACTOR_AUTHENTICATION");
    expect((await client.post(`${TF}/verify-otp`, { code })).body.code).toBe("INVALID_TWO_FACTOR_COOKIE");
    expect((await client.get("/api/auth/get-session")).body).toBeNull();
  });

  it("by username too", async () => {
    const username = `nd${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
    const { email } = await verifiedAccount(server, { username });
    const seen = mailCount(mailbox, email, SUBJECT);
    const client = browser();
    const response = await client.post("/api/auth/sign-in/username", { username, password: PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(CHECK);
    const code = codeOf((await nextMail(mailbox, email, SUBJECT, seen)).text);
    expect((await client.post(`${TF}/verify-otp`, { code })).status).toBe(200);
  });
});

describe("new-device verification: not asked", () => {
  it("from a browser the account knows", async () => {
    const { email, owner } = await verifiedAccount();
    const response = await signIn(owner, email);
    expect(response.status).toBe(200);
    expect(response.body.token).toEqual(expect.any(String));
  });

  it("with a passkey", async () => {
    const { email, owner } = await verifiedAccount();
    const authenticator = new SoftAuthenticator(server.origin);
    const options = await owner.get("/api/auth/passkey/generate-register-options");
    expect((await owner.post("/api/auth/passkey/verify-registration", { response: authenticator.register(options.body).response })).status).toBe(200);
    const client = browser();
    const seen = mailCount(mailbox, email, SUBJECT);
    const challenge = await client.post("/api/auth/passkey/generate-authenticate-options", {});
    const response = await client.post("/api/auth/passkey/verify-authentication", { response: authenticator.authenticate(challenge.body) });
    expect(response.status, response.text).toBe(200);
    expect(response.body.session.token).toEqual(expect.any(String));
    expect(mailCount(mailbox, email, SUBJECT)).toBe(seen);
  });

  it("of an unverified address", async () => {
    const { email } = await signUp(browser());
    const response = await signIn(browser(), email);
    expect(response.status).toBe(200);
    expect(response.body.token).toEqual(expect.any(String));
  });

  it("of an account with two-factor: its own second step, nothing more", async () => {
    const { email, owner } = await verifiedAccount();
    await enableTwoFactor(owner);
    const seen = mailCount(mailbox, email, SUBJECT);
    const response = await signIn(browser(), email);
    expect(response.body).toEqual(TWO_FACTOR_REDIRECT);
    expect(mailCount(mailbox, email, SUBJECT)).toBe(seen);
  });

  it("with an e-mailed sign-in code", async () => {
    const { email } = await verifiedAccount();
    const client = browser();
    const seen = mailCount(mailbox, email);
    expect((await client.post("/api/auth/email-otp/send-verification-otp", { email, type: "sign-in" })).status).toBe(200);
    const otp = (await nextMail(mailbox, email, undefined, seen)).text.match(/\b(\d{6})\b/)![1];
    const response = await client.post("/api/auth/sign-in/email-otp", { email, otp });
    expect(response.status).toBe(200);
    expect(response.body.token).toEqual(expect.any(String));
  });
});

describe("new-device verification: the page, without JavaScript", () => {
  it("/sign-in goes to /two-factor's e-mailed-code form, and its code signs in", async () => {
    const { email, user } = await verifiedAccount();
    const client = browser();
    const seen = mailCount(mailbox, email, SUBJECT);
    const posted = await client.request("POST", "/sign-in", { rawBody: new URLSearchParams({ email, password: PASSWORD, rememberMe: "on" }).toString(), headers: FORM });
    expect([302, 303]).toContain(posted.status);
    const location = new URL(posted.headers.get("location")!, server.baseUrl);
    expect(location.pathname).toBe("/two-factor");
    const page = await client.get(`${location.pathname}${location.search}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain("We emailed you a code to confirm it");
    expect(shownText(page.text)).not.toContain("Use your authenticator app");
    const code = codeOf((await nextMail(mailbox, email, SUBJECT, seen)).text);
    const finished = await client.request("POST", "/two-factor?method=otp", { rawBody: new URLSearchParams({ code }).toString(), headers: FORM });
    expect([302, 303]).toContain(finished.status);
    expect((await client.get("/api/auth/get-session")).body.user.id).toBe(user.id);
  });
});

describe("new-device verification: off (the default)", () => {
  let quiet: TestServer;
  beforeAll(async () => {
    quiet = await sharedServer({ env: { AUTH_EMAIL_VERIFICATION: "off" }, mail: true });
  });
  afterAll(async () => {
    await quiet?.stop();
  });

  it("a right password from a new browser signs in at once", async () => {
    const { email } = await verifiedAccount(quiet);
    const response = await signIn(browser(quiet), email);
    expect(response.status).toBe(200);
    expect(response.body.token).toEqual(expect.any(String));
  });
});
