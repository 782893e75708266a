// Two-factor authentication (issue 11): enabling with a confirmed first code, the sign-in interception and its
// signed attempt cookie, TOTP (replay, drift), e-mailed codes, backup codes, the attempt cap and trusted devices.
import { createCipheriv, createHmac, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp } from "../support/client";
import { cloneClient, COOKIE, clears, setCookie } from "../support/cookies";
import { mailCount, nextMail } from "../support/mail";
import type { Mailbox } from "../support/mailbox";
import { TEST_SECRET, useServerWithMailbox, type TestServer } from "../support/server";
import { query } from "../support/sql";
import { atStartOfStep, chooseEmailedCode, codeAt, currentStep, enableTwoFactor, freshCode, totpFrom, TWO_FACTOR_REDIRECT, TWO_FACTOR_REDIRECT_WITH_OTP } from "../support/two-factor";

const TWO_FACTOR_COOKIE = "latchkey.two_factor";
const TRUST_COOKIE = "latchkey.trust_device";
/** Spec §3: two groups of 5 joined by a dash; ADR 037: one case, no I, O, 0 or 1. */
const BACKUP_CODE = /^[A-HJ-NP-Z2-9]{5}-[A-HJ-NP-Z2-9]{5}$/;
const TF = "/api/auth/two-factor";

let mailbox: Mailbox;
let server: TestServer;
useServerWithMailbox({ AUTH_EMAIL_VERIFICATION: "off" }, (running) => ({ server, mailbox } = running));

/** A user with two-factor on; `emailedCode` also chooses the e-mailed second factor. */
async function userWithTwoFactor(options: { emailedCode?: boolean } = {}) {
  const client = new ApiClient(server.baseUrl);
  const created = await signUp(client);
  const setup = await enableTwoFactor(client);
  if (options.emailedCode) await chooseEmailedCode(client);
  return { ...created, ...setup, client };
}

/** A new browser that signed in with the password and now waits for its second factor. */
async function passwordStep(email: string, client = new ApiClient(server.baseUrl), expected: object = TWO_FACTOR_REDIRECT) {
  const response = await client.post("/api/auth/sign-in/email", { email, password: PASSWORD });
  expect(response.status).toBe(200);
  expect(response.body).toEqual(expected);
  return { client, response };
}

/** The server's encryption at rest (app/auth/core/crypto.server.ts), to plant codes stored in an older format. */
function sealedAsTheServerDoes(plaintext: string): string {
  const key = createHmac("sha256", TEST_SECRET).update("latchkey encryption key").digest();
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [iv, body, cipher.getAuthTag()].map((part) => part.toString("base64url")).join(".");
}

const expectError = (response: { status: number; body: any }, status: number, code: string) => {
  expect(response.status).toBe(status);
  expect(response.body.code).toBe(code);
};

describe("enabling two-factor", () => {
  it("answers {totpURI, backupCodes}, stores both encrypted, and switches on only after the first code", async () => {
    const client = new ApiClient(server.baseUrl);
    const { email, user } = await signUp(client);
    expectError(await client.post(`${TF}/enable`, { password: "wrong password!" }), 400, "INVALID_PASSWORD");

    const response = await client.post(`${TF}/enable`, { password: PASSWORD, issuer: "Acme" });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["backupCodes", "totpURI"]);
    const totp = totpFrom(response.body.totpURI);
    expect(totp.issuer).toBe("Acme");
    expect(totp.label).toBe(email);
    expect(totp.digits).toBe(6);
    expect(totp.period).toBe(30);
    const codes: string[] = response.body.backupCodes;
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(BACKUP_CODE);
    expect(new Set(codes).size).toBe(10);

    const [row] = await query<{ secret: string; backupCodes: string }>(server.database, `SELECT * FROM "twoFactor" WHERE "userId" = ?`, [user.id]);
    expect(row.secret).not.toContain(totp.secret.base32);
    for (const code of codes) expect(row.backupCodes).not.toContain(code);

    // Not on yet: a password sign-in still starts a session.
    expect((await client.get("/api/auth/get-session")).body.user.twoFactorEnabled).toBe(false);
    const other = await new ApiClient(server.baseUrl).post("/api/auth/sign-in/email", { email, password: PASSWORD });
    expect(other.body.token).toBeTruthy();

    expectError(await client.post(`${TF}/verify-totp`, { code: codeAt(response.body.totpURI, -3) }), 401, "INVALID_TWO_FACTOR_AUTHENTICATION");
    const confirmed = await client.post(`${TF}/verify-totp`, { code: codeAt(response.body.totpURI) });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.user.twoFactorEnabled).toBe(true);
    expect((await client.get("/api/auth/get-session")).body.user.twoFactorEnabled).toBe(true);
  });

  it("needs a session; get-totp-uri answers the same URI; generate-backup-codes needs two-factor on", async () => {
    const anonymous = new ApiClient(server.baseUrl);
    expectError(await anonymous.post(`${TF}/enable`, { password: PASSWORD }), 401, "UNAUTHORIZED");
    const client = new ApiClient(server.baseUrl);
    await signUp(client);
    expectError(await client.post(`${TF}/get-totp-uri`, { password: PASSWORD }), 400, "TOTP_NOT_ENABLED");
    const { totpURI } = (await client.post(`${TF}/enable`, { password: PASSWORD })).body;
    expectError(await client.post(`${TF}/generate-backup-codes`, { password: PASSWORD }), 400, "TWO_FACTOR_ISNT_ENABLED");
    expectError(await client.post(`${TF}/get-totp-uri`, { password: "nope nope nope" }), 400, "INVALID_PASSWORD");
    const again = await client.post(`${TF}/get-totp-uri`, { password: PASSWORD });
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ totpURI });
    expectError(await client.post(`${TF}/enable`, {}), 400, "VALIDATION_ERROR");
  });
});

describe("signing in with two-factor on", () => {
  it("answers {twoFactorRedirect: true} with no session, only a short-lived signed attempt cookie", async () => {
    const { email } = await userWithTwoFactor();
    const { client, response } = await passwordStep(email);
    expect(setCookie(response, COOKIE.sessionToken)).toBeUndefined();
    const cookie = setCookie(response, TWO_FACTOR_COOKIE)!;
    expect(cookie.attributes.httponly).toBe(true);
    expect(cookie.attributes.samesite).toMatch(/lax/i);
    expect(Number(cookie.attributes["max-age"])).toBe(600);
    expect((await client.get("/api/auth/get-session")).body).toBeNull();
  });

  it("finishes with a TOTP code: {token, user} and the session; the attempt cookie is then used up", async () => {
    const { email, totpURI, used, user } = await userWithTwoFactor();
    const { client } = await passwordStep(email);
    const stale = cloneClient(client);
    const response = await client.post(`${TF}/verify-totp`, { code: freshCode(totpURI, used) });
    expect(response.status).toBe(200);
    expect(response.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(response.body.user).toMatchObject({ id: user.id, email, twoFactorEnabled: true });
    expect(clears(response, TWO_FACTOR_COOKIE)).toBe(true);
    expect((await client.get("/api/auth/get-session")).body.session.token).toBe(response.body.token);
    expectError(await stale.post(`${TF}/verify-totp`, { code: codeAt(totpURI) }), 401, "INVALID_TWO_FACTOR_COOKIE");
  });

  it("refuses a missing or tampered cookie with 'invalid two factor cookie'", async () => {
    const { email, totpURI } = await userWithTwoFactor();
    const fresh = await new ApiClient(server.baseUrl).post(`${TF}/verify-totp`, { code: codeAt(totpURI) });
    expectError(fresh, 401, "INVALID_TWO_FACTOR_COOKIE");
    expect(fresh.body.message).toBe("invalid two factor cookie");
    const { client } = await passwordStep(email);
    const value = client.cookies.get(TWO_FACTOR_COOKIE)!;
    client.cookies.set(TWO_FACTOR_COOKIE, `${value.slice(0, 5)}${value[5] === "a" ? "b" : "a"}${value.slice(6)}`);
    for (const path of ["verify-totp", "verify-otp", "verify-backup-code", "send-otp"]) {
      expectError(await client.post(`${TF}/${path}`, { code: "123456" }), 401, "INVALID_TWO_FACTOR_COOKIE");
    }
  });

  it("accepts one step of clock drift either way, refuses two, and refuses a replayed code", async () => {
    // The offsets are relative to the time step the run starts in. atStartOfStep leaves a run most of a step, but a
    // loaded machine can stretch one past its end, and then the server counted from the next step: such a run
    // proves nothing either way, and runs again with a new account (its answers are asserted only once one did not).
    const run = async () => {
      const client = new ApiClient(server.baseUrl);
      const { email } = await signUp(client);
      const { totpURI } = (await client.post(`${TF}/enable`, { password: PASSWORD })).body;
      await atStartOfStep();
      const step = currentStep();
      const at = (offset: number) => totpFrom(totpURI).generate({ timestamp: (step + offset) * 30_000 + 1000 });
      const verify = async (code: string) => (await passwordStep(email)).client.post(`${TF}/verify-totp`, { code });
      const confirmed = await client.post(`${TF}/verify-totp`, { code: at(0) });
      const [twoBehind, oneBehind, oneAhead] = [await verify(at(-2)), await verify(at(-1)), await verify(at(1))];
      // Each of the three codes was used once already: a replay is refused, also of the confirming code.
      const replays = [await verify(at(0)), await verify(at(1))];
      return { oneStep: currentStep() === step, confirmed, twoBehind, oneBehind, oneAhead, replays };
    };
    let answers = await run();
    for (let again = 0; again < 2 && !answers.oneStep; again++) answers = await run();
    expect(answers.oneStep, "every run outlasted its time step").toBe(true);

    expect(answers.confirmed.status).toBe(200);
    expectError(answers.twoBehind, 401, "INVALID_TWO_FACTOR_AUTHENTICATION");
    expect(answers.twoBehind.body.message).toBe("invalid two factor authentication");
    expect(answers.oneBehind.status).toBe(200);
    expect(answers.oneAhead.status).toBe(200);
    for (const replay of answers.replays) expectError(replay, 401, "INVALID_TWO_FACTOR_AUTHENTICATION");
  }, 120_000); // a run may wait up to 18 s for a fresh step, and run again

  it("ends the attempt after 5 wrong codes: even the right one is then refused", async () => {
    const { email, totpURI, used } = await userWithTwoFactor();
    const { client } = await passwordStep(email);
    const cookie = client.cookies.get(TWO_FACTOR_COOKIE)!;
    for (let i = 0; i < 4; i++) expectError(await client.post(`${TF}/verify-totp`, { code: "000000" }), 401, "INVALID_TWO_FACTOR_AUTHENTICATION");
    const fifth = await client.post(`${TF}/verify-backup-code`, { code: "aaaaa-bbbbb" });
    expectError(fifth, 401, "INVALID_TWO_FACTOR_AUTHENTICATION");
    expect(clears(fifth, TWO_FACTOR_COOKIE)).toBe(true);
    client.cookies.set(TWO_FACTOR_COOKIE, cookie);
    expectError(await client.post(`${TF}/verify-totp`, { code: freshCode(totpURI, used) }), 401, "INVALID_TWO_FACTOR_COOKIE");
    expect((await client.get("/api/auth/get-session")).body).toBeNull();
  });

  it("finishes with an e-mailed 6-digit code (verify-otp); a wrong one is 401 and a code works once", async () => {
    const { email } = await userWithTwoFactor({ emailedCode: true });
    const { client } = await passwordStep(email, undefined, TWO_FACTOR_REDIRECT_WITH_OTP);
    const seen = mailCount(mailbox, email);
    const sent = await client.post(`${TF}/send-otp`, {});
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ status: true });
    const mail = await nextMail(mailbox, email, undefined, seen);
    expect(mail.subject).toContain("Latchkey");
    const code = mail.text.match(/\b(\d{6})\b/)![1];
    expect(mail.text).toContain("5 minutes");
    const rows = await query<{ value: string }>(server.database, `SELECT value FROM "verification"`);
    expect(rows.some((row) => row.value.includes(code))).toBe(false);
    const wrongCode = code === "000000" ? "111111" : "000000";
    expectError(await client.post(`${TF}/verify-otp`, { code: wrongCode }), 401, "INVALID_TWO_FACTOR_AUTHENTICATION");
    const stale = cloneClient(client);
    const done = await client.post(`${TF}/verify-otp`, { code });
    expect(done.status).toBe(200);
    expect(done.body.user.email).toBe(email);
    expect((await client.get("/api/auth/get-session")).body.user.email).toBe(email);
    expectError(await stale.post(`${TF}/verify-otp`, { code }), 401, "INVALID_TWO_FACTOR_COOKIE");
  });

  it("on the page, a code typed before any was sent is 'no code is waiting', not 'not right'", async () => {
    const { email } = await userWithTwoFactor({ emailedCode: true });
    const { client } = await passwordStep(email, undefined, TWO_FACTOR_REDIRECT_WITH_OTP);
    const page = await client.request("POST", "/two-factor?method=otp", {
      rawBody: new URLSearchParams({ code: "123456" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(page.status).toBe(401);
    expect(page.text).toContain("No code is waiting for this sign-in. Send a new code.");
    expectError(await client.post(`${TF}/verify-otp`, { code: "123456" }), 401, "INVALID_TWO_FACTOR_AUTHENTICATION");
  });

  it("refuses an expired e-mailed code, and an expired attempt altogether", async () => {
    const { email, backupCodes, user } = await userWithTwoFactor({ emailedCode: true });
    const { client } = await passwordStep(email, undefined, TWO_FACTOR_REDIRECT_WITH_OTP);
    const seen = mailCount(mailbox, email);
    expect((await client.post(`${TF}/send-otp`, {})).status).toBe(200);
    const code = (await nextMail(mailbox, email, undefined, seen)).text.match(/\b(\d{6})\b/)![1];
    await query(server.database, `UPDATE "verification" SET "expiresAt" = "createdAt" WHERE "identifier" LIKE 'two-factor-otp:%' AND "value" LIKE ?`, [`%${user.id}%`]);
    // The page words the refusal for people: expired, not mistyped, and the way on; the API keeps the spec's.
    const page = await client.request("POST", "/two-factor?method=otp", {
      rawBody: new URLSearchParams({ code }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(page.status).toBe(401);
    expect(page.text).toContain("That code has expired: codes work for 5 minutes. Send a new code.");
    expectError(await client.post(`${TF}/verify-otp`, { code }), 401, "INVALID_TWO_FACTOR_AUTHENTICATION");

    await query(server.database, `UPDATE "verification" SET "expiresAt" = "createdAt" WHERE "identifier" LIKE 'two-factor-attempt:%' AND "value" LIKE ?`, [`%${user.id}%`]);
    expectError(await client.post(`${TF}/verify-backup-code`, { code: backupCodes[0] }), 401, "INVALID_TWO_FACTOR_COOKIE");
    expect((await client.get("/api/auth/get-session")).body).toBeNull();
  });

  it("accepts each backup code once, and new backup codes replace the old ones", async () => {
    const { email, backupCodes, client: owner } = await userWithTwoFactor();
    const { client } = await passwordStep(email);
    const done = await client.post(`${TF}/verify-backup-code`, { code: backupCodes[0] });
    expect(done.status).toBe(200);
    expect(done.body.user.email).toBe(email);

    const { client: again } = await passwordStep(email);
    expectError(await again.post(`${TF}/verify-backup-code`, { code: backupCodes[0] }), 401, "INVALID_TWO_FACTOR_AUTHENTICATION");
    expect((await again.post(`${TF}/verify-backup-code`, { code: backupCodes[1] })).status).toBe(200);

    expectError(await owner.post(`${TF}/generate-backup-codes`, { password: "wrong password" }), 400, "INVALID_PASSWORD");
    const renewed = await owner.post(`${TF}/generate-backup-codes`, { password: PASSWORD });
    expect(renewed.status).toBe(200);
    expect(renewed.body.status).toBe(true);
    expect(renewed.body.backupCodes).toHaveLength(10);
    for (const code of renewed.body.backupCodes) expect(code).toMatch(BACKUP_CODE);
    const { client: third } = await passwordStep(email);
    expectError(await third.post(`${TF}/verify-backup-code`, { code: backupCodes[2] }), 401, "INVALID_TWO_FACTOR_AUTHENTICATION");
    expect((await third.post(`${TF}/verify-backup-code`, { code: renewed.body.backupCodes[9] })).status).toBe(200);
  });

  it("reads a backup code as it was written down: any case, with or without its dash, spaces anywhere (ADR 037)", async () => {
    const { email, backupCodes } = await userWithTwoFactor();
    const typings = [
      backupCodes[0].toLowerCase(),
      backupCodes[1].replace("-", ""),
      ` ${backupCodes[2].slice(0, 3)} ${backupCodes[2].slice(3).replace("-", " ").toLowerCase()} `,
      backupCodes[3].replace("-", "\u2013"),
    ];
    for (const typed of typings) {
      const { client } = await passwordStep(email);
      const done = await client.post(`${TF}/verify-backup-code`, { code: typed });
      expect(done.status, typed).toBe(200);
    }
    // Used up however it was typed the first time.
    const { client } = await passwordStep(email);
    expectError(await client.post(`${TF}/verify-backup-code`, { code: backupCodes[0] }), 401, "INVALID_TWO_FACTOR_AUTHENTICATION");
  });

  it("backup codes made before ADR 037 (mixed case) still work, now in any case", async () => {
    const { email, user } = await userWithTwoFactor();
    const old = ["Il5RY-I0fkV", "aBcDe-12345"];
    await query(server.database, `UPDATE "twoFactor" SET "backupCodes" = ? WHERE "userId" = ?`, [sealedAsTheServerDoes(JSON.stringify(old)), user.id]);
    const first = await passwordStep(email);
    expect((await first.client.post(`${TF}/verify-backup-code`, { code: "Il5RY-I0fkV" })).status).toBe(200);
    const second = await passwordStep(email);
    expectError(await second.client.post(`${TF}/verify-backup-code`, { code: "Il5RY-I0fkV" }), 401, "INVALID_TWO_FACTOR_AUTHENTICATION");
    expect((await second.client.post(`${TF}/verify-backup-code`, { code: "abcde 12345" })).status).toBe(200);
  });

  it("two concurrent uses of one backup code: exactly one signs in", async () => {
    const { email, backupCodes } = await userWithTwoFactor();
    const [a, b] = [await passwordStep(email), await passwordStep(email)];
    const results = await Promise.all([a, b].map(({ client }) => client.post(`${TF}/verify-backup-code`, { code: backupCodes[3] })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });
});

describe("trusted devices", () => {
  it("trustDevice sets a 30-day signed cookie that skips the second factor, refreshed on use", async () => {
    const { email, backupCodes } = await userWithTwoFactor();
    const { client } = await passwordStep(email);
    const done = await client.post(`${TF}/verify-backup-code`, { code: backupCodes[0], trustDevice: true });
    expect(done.status).toBe(200);
    const trust = setCookie(done, TRUST_COOKIE)!;
    expect(trust.attributes["max-age"]).toBe("2592000");
    expect(trust.attributes.httponly).toBe(true);
    await client.post("/api/auth/sign-out", {});

    const direct = await client.post("/api/auth/sign-in/email", { email, password: PASSWORD });
    expect(direct.status).toBe(200);
    expect(direct.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(setCookie(direct, TRUST_COOKIE)?.attributes["max-age"]).toBe("2592000");

    // The cookie is for this user only, and a forged one does nothing.
    const someoneElse = await userWithTwoFactor();
    const borrowed = cloneClient(client);
    const refused = await borrowed.post("/api/auth/sign-in/email", { email: someoneElse.email, password: PASSWORD });
    expect(refused.body).toEqual(TWO_FACTOR_REDIRECT);
    const forged = cloneClient(client);
    forged.cookies.set(TRUST_COOKIE, client.cookies.get(TRUST_COOKIE)!.replace(/.$/, (c) => (c === "A" ? "B" : "A")));
    forged.cookies.delete(COOKIE.sessionToken);
    expect((await forged.post("/api/auth/sign-in/email", { email, password: PASSWORD })).body).toEqual(TWO_FACTOR_REDIRECT);
  });

  it("stops skipping after two-factor is disabled and set up again, or after a password change", async () => {
    const { email, backupCodes, client: owner } = await userWithTwoFactor();
    const { client } = await passwordStep(email);
    expect((await client.post(`${TF}/verify-backup-code`, { code: backupCodes[0], trustDevice: true })).status).toBe(200);
    const trusted = cloneClient(client);
    trusted.cookies.delete(COOKIE.sessionToken);

    expectError(await owner.post(`${TF}/disable`, { password: "wrong password" }), 400, "INVALID_PASSWORD");
    const disabled = await owner.post(`${TF}/disable`, { password: PASSWORD });
    expect(disabled.status).toBe(200);
    expect((await owner.get("/api/auth/get-session")).body.user.twoFactorEnabled).toBe(false);
    // Off: the password alone signs in.
    const plain = await new ApiClient(server.baseUrl).post("/api/auth/sign-in/email", { email, password: PASSWORD });
    expect(plain.body.token).toBeTruthy();

    const again = await enableTwoFactor(owner);
    expect((await cloneClient(trusted).post("/api/auth/sign-in/email", { email, password: PASSWORD })).body).toEqual(TWO_FACTOR_REDIRECT);

    // Trust this browser anew, then change the password: the trust ends.
    const step = await passwordStep(email, cloneClient(trusted));
    expect((await step.client.post(`${TF}/verify-backup-code`, { code: again.backupCodes[0], trustDevice: true })).status).toBe(200);
    const trustedAgain = cloneClient(step.client);
    trustedAgain.cookies.delete(COOKIE.sessionToken);
    expect((await cloneClient(trustedAgain).post("/api/auth/sign-in/email", { email, password: PASSWORD })).body.token).toBeTruthy();
    const NEW_PASSWORD = "another passphrase 77";
    expect((await owner.post("/api/auth/change-password", { currentPassword: PASSWORD, newPassword: NEW_PASSWORD })).status).toBe(200);
    expect((await trustedAgain.post("/api/auth/sign-in/email", { email, password: NEW_PASSWORD })).body).toEqual(TWO_FACTOR_REDIRECT);
  });
});
