// E-mail one-time codes (issue 11): sending, signing in (and signing up) with a code, verifying the address,
// checking a code, and resetting the password; 6 digits, 5 minutes, 3 wrong guesses, single use, stored
// hashed; and a code sign-in taking back an address somebody else had registered without proving it.
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { COOKIE, setCookie } from "../support/cookies";
import { expectNoNewMail, mailCount, nextMail } from "../support/mail";
import { type Mailbox } from "../support/mailbox";
import { sharedMailbox, sharedServer, startServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";
import { enableTwoFactor, TWO_FACTOR_REDIRECT } from "../support/two-factor";

let mailbox: Mailbox;
let server: TestServer;
let noSignUp: TestServer;
beforeAll(async () => {
  mailbox = await sharedMailbox();
  [server, noSignUp] = await Promise.all([
    sharedServer({ env: { SMTP_URL: mailbox.url } }),
    sharedServer({ env: { SMTP_URL: mailbox.url, AUTH_EMAIL_OTP_SIGN_UP: "off" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server, noSignUp].map((s) => s?.stop()));
  await mailbox?.stop();
});

const OTP = "/api/auth/email-otp";
const client = (target = server) => new ApiClient(target.baseUrl);
type OtpType = "sign-in" | "email-verification" | "forget-password";
const SUBJECTS: Record<OtpType, RegExp> = {
  "sign-in": /sign-in code/,
  "email-verification": /verification code/,
  "forget-password": /password reset code/,
};

/** Asks for a code and reads it from the mail that arrives. */
async function mailedCode(email: string, type: OtpType, target = server, path = `${OTP}/send-verification-otp`): Promise<string> {
  const seen = mailCount(mailbox, email, SUBJECTS[type]);
  const response = await client(target).post(path, path.endsWith("send-verification-otp") ? { email, type } : { email });
  expect(response.status).toBe(200);
  expect(response.body).toEqual({ success: true });
  const mail = await nextMail(mailbox, email, SUBJECTS[type], seen);
  expect(mail.subject).toContain("Latchkey");
  expect(mail.text).toContain("5 minutes");
  return mail.text.match(/Your code: (\d{6})/)![1];
}

const markVerified = (email: string) =>
  query(server.database, `UPDATE "user" SET "emailVerified" = ? WHERE "email" = ?`, [server.database.kind === "sqlite" ? 1 : true, email]);

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const wrongFor = (code: string) => (code === "123456" ? "654321" : "123456");

describe("POST /email-otp/send-verification-otp", () => {
  it("answers {success: true} for known and unknown addresses; mails 6 digits, stored only hashed", async () => {
    const { email } = await signUp(client());
    const code = await mailedCode(email, "forget-password");
    expect(code).toMatch(/^\d{6}$/);
    // The code's row is found by the address's hash (other test files' rows share this database).
    const rows = await query<{ identifier: string; value: string }>(server.database, `SELECT identifier, value FROM "verification" WHERE "identifier" = ?`, [
      `email-otp-forget-password:${sha256(email)}`,
    ]);
    expect(rows).toHaveLength(1);
    expect(rows.some((row) => row.identifier.includes(code) || row.value.includes(code))).toBe(false);
    expect(await count(server.database, "verification", `"identifier" LIKE ?`, [`%${email}%`])).toBe(0);

    const unknown = uniqueEmail("nobody");
    for (const type of ["email-verification", "forget-password"] as const) {
      const response = await client().post(`${OTP}/send-verification-otp`, { email: unknown, type });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true });
    }
    await expectNoNewMail(mailbox, unknown, 0);
  });

  it("refuses an unknown type with a validation error", async () => {
    const response = await client().post(`${OTP}/send-verification-otp`, { email: uniqueEmail(), type: "hack" });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("VALIDATION_ERROR");
  });
});

describe("POST /sign-in/email-otp", () => {
  it("signs an existing user in with {token, user} and the session; the code works once", async () => {
    const { email, user } = await signUp(client());
    const code = await mailedCode(email, "sign-in");
    const c = client();
    const response = await c.post("/api/auth/sign-in/email-otp", { email: email.toUpperCase(), otp: code });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["token", "user"]);
    expect(response.body.user).toMatchObject({ id: user.id, email });
    expect(setCookie(response, COOKIE.sessionToken)?.value).toBeTruthy();
    expect((await c.get("/api/auth/get-session")).body.session.token).toBe(response.body.token);
    const again = await client().post("/api/auth/sign-in/email-otp", { email, otp: code });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ code: "INVALID_OTP", message: "Invalid OTP" });
  });

  it("one code used twice at once signs in exactly once", async () => {
    const { email } = await signUp(client());
    const code = await mailedCode(email, "sign-in");
    const results = await Promise.all([0, 1, 2].map(() => client().post("/api/auth/sign-in/email-otp", { email, otp: code })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
  });

  it("creates a verified account for an unknown address, unless AUTH_EMAIL_OTP_SIGN_UP=off", async () => {
    const email = uniqueEmail("new");
    const code = await mailedCode(email, "sign-in");
    const response = await client().post("/api/auth/sign-in/email-otp", { email, otp: code });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ email, emailVerified: true });

    const closed = uniqueEmail("closed");
    const answer = await client(noSignUp).post(`${OTP}/send-verification-otp`, { email: closed, type: "sign-in" });
    expect(answer.body).toEqual({ success: true });
    await expectNoNewMail(mailbox, closed, 0);
    expect((await client(noSignUp).post("/api/auth/sign-in/email-otp", { email: closed, otp: "123456" })).status).toBe(400);
    expect(await count(noSignUp.database, "user", `"email" = ?`, [closed])).toBe(0);
  });

  it("three wrong codes end the code: 'Too many attempts' (403), then even the right one is refused", async () => {
    const { email } = await signUp(client());
    const code = await mailedCode(email, "sign-in");
    for (let i = 0; i < 2; i++) {
      const wrong = await client().post("/api/auth/sign-in/email-otp", { email, otp: wrongFor(code) });
      expect(wrong.status).toBe(400);
      expect(wrong.body.code).toBe("INVALID_OTP");
    }
    const third = await client().post("/api/auth/sign-in/email-otp", { email, otp: wrongFor(code) });
    expect(third.status).toBe(403);
    expect(third.body).toEqual({ code: "TOO_MANY_ATTEMPTS", message: "Too many attempts" });
    const right = await client().post("/api/auth/sign-in/email-otp", { email, otp: code });
    expect(right.status).toBe(400);
    expect(setCookie(right, COOKIE.sessionToken)).toBeUndefined();
  });

  it("refuses an expired code with 'OTP expired', and a newer code replaces an older one", async () => {
    const { email } = await signUp(client());
    const first = await mailedCode(email, "sign-in");
    const second = await mailedCode(email, "sign-in");
    if (first !== second) expect((await client().post("/api/auth/sign-in/email-otp", { email, otp: first })).status).toBe(400);
    await query(server.database, `UPDATE "verification" SET "expiresAt" = "createdAt" WHERE "identifier" = ?`, [`email-otp-sign-in:${sha256(email)}`]);
    const expired = await client().post("/api/auth/sign-in/email-otp", { email, otp: second });
    expect(expired.status).toBe(400);
    expect(expired.body).toEqual({ code: "OTP_EXPIRED", message: "OTP expired" });
  });

  it("goes through the two-factor gate like every other first factor", async () => {
    const c = client();
    const { email } = await signUp(c);
    await markVerified(email);
    await enableTwoFactor(c);
    const code = await mailedCode(email, "sign-in");
    const response = await client().post("/api/auth/sign-in/email-otp", { email, otp: code });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(TWO_FACTOR_REDIRECT);
    expect(setCookie(response, COOKIE.sessionToken)).toBeUndefined();
  });

  it("takes back a never-verified account: its password and earlier sessions end, and it is marked verified", async () => {
    // Somebody registers the address without owning it and stays signed in.
    const squatter = client();
    const { email, user } = await signUp(squatter, { password: "squatter's password" });
    expect((await squatter.get("/api/auth/get-session")).body.user.emailVerified).toBe(false);
    // …and even sets up a second factor of their own, which would lock the real owner out.
    await enableTwoFactor(squatter, new Set(), "squatter's password");

    const code = await mailedCode(email, "sign-in");
    const owner = client();
    const response = await owner.post("/api/auth/sign-in/email-otp", { email, otp: code });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ id: user.id, emailVerified: true, twoFactorEnabled: false });
    expect(await count(server.database, "twoFactor", `"userId" = ?`, [user.id])).toBe(0);
    expect((await squatter.get("/api/auth/get-session")).body).toBeNull();
    expect((await client().post("/api/auth/sign-in/email", { email, password: "squatter's password" })).status).toBe(401);
    expect((await owner.get("/api/auth/get-session")).body.user.id).toBe(user.id);
  });

  it("leaves a verified account's password alone", async () => {
    const c = client();
    const { email } = await signUp(c);
    await markVerified(email);
    const code = await mailedCode(email, "sign-in");
    expect((await client().post("/api/auth/sign-in/email-otp", { email, otp: code })).status).toBe(200);
    expect((await client().post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    expect((await c.get("/api/auth/get-session")).body).not.toBeNull();
  });
});

describe("verify-email, check-verification-otp and password reset by code", () => {
  it("POST /email-otp/verify-email marks the address verified", async () => {
    const c = client();
    const { email } = await signUp(c);
    const code = await mailedCode(email, "email-verification");
    const wrong = await client().post(`${OTP}/verify-email`, { email, otp: wrongFor(code) });
    expect(wrong.body.code).toBe("INVALID_OTP");
    // From the browser that signed up: nothing set up there ends (ADR 028; another browser claims the account).
    const response = await c.post(`${OTP}/verify-email`, { email, otp: code });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ status: true, user: { email, emailVerified: true } });
    expect((await c.get("/api/auth/get-session")).body.user.emailVerified).toBe(true);
  });

  it("POST /email-otp/check-verification-otp checks without using the code up; wrong guesses count", async () => {
    const { email } = await signUp(client());
    const code = await mailedCode(email, "sign-in");
    const ok = await client().post(`${OTP}/check-verification-otp`, { email, type: "sign-in", otp: code });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true });
    expect((await client().post(`${OTP}/check-verification-otp`, { email, type: "forget-password", otp: code })).body.code).toBe("INVALID_OTP");
    expect((await client().post("/api/auth/sign-in/email-otp", { email, otp: code })).status).toBe(200);
  });

  it.each([`${OTP}/request-password-reset`, "/api/auth/forget-password/email-otp"])("%s then /email-otp/reset-password sets a new password", async (path) => {
    const { email } = await signUp(client());
    const code = await mailedCode(email, "forget-password", server, path);
    const short = await client().post(`${OTP}/reset-password`, { email, otp: code, password: "short" });
    expect(short.body.code).toBe("PASSWORD_TOO_SHORT");
    const NEW = "a brand new passphrase 7";
    const response = await client().post(`${OTP}/reset-password`, { email, otp: code, password: NEW });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    expect((await client().post("/api/auth/sign-in/email", { email, password: NEW })).status).toBe(200);
    expect((await client().post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(401);
    expect((await client().post(`${OTP}/reset-password`, { email, otp: code, password: "yet another one 8" })).body.code).toBe("INVALID_OTP");
  });

  it("reads a code as it was written down: spaces, dashes and full-width digits ignored (ADR 037)", async () => {
    const { email } = await signUp(client());
    const spaced = (code: string) => `${code.slice(0, 3)} ${code.slice(3)}`;
    const dashed = (code: string) => ` ${code.slice(0, 3)}-${code.slice(3)} `;
    const signIn = await mailedCode(email, "sign-in");
    expect((await client().post("/api/auth/sign-in/email-otp", { email, otp: spaced(signIn) })).status).toBe(200);

    const reset = await mailedCode(email, "forget-password", server, `${OTP}/request-password-reset`);
    const check = await client().post(`${OTP}/check-verification-otp`, { email, type: "forget-password", otp: dashed(reset) });
    expect(check.body).toEqual({ success: true });
    const NEW = "a passphrase copied 9";
    const response = await client().post(`${OTP}/reset-password`, { email, otp: dashed(reset), password: NEW });
    expect(response.body).toEqual({ success: true });
    expect((await client().post("/api/auth/sign-in/email", { email, password: NEW })).status).toBe(200);

    const verify = await mailedCode(email, "email-verification");
    const fullWidth = [...verify].map((digit) => String.fromCharCode(0xff10 + Number(digit))).join("");
    expect((await client().post(`${OTP}/verify-email`, { email, otp: fullWidth })).status).toBe(200);

    // Still the specification's answer for a code that is wrong however it is read.
    const wrong = await client().post("/api/auth/sign-in/email-otp", { email, otp: "12 34 5" });
    expect(wrong.body).toEqual({ code: "INVALID_OTP", message: "Invalid OTP" });
  });

  it("request-password-reset answers the same for an unknown address and sends nothing", async () => {
    const unknown = uniqueEmail("ghost");
    const response = await client().post(`${OTP}/request-password-reset`, { email: unknown });
    expect(response.body).toEqual({ success: true });
    await expectNoNewMail(mailbox, unknown, 0);
  });
});

describe("the /sign-in/code page and the account a code creates (issue 27)", () => {
  const FORM = { "content-type": "application/x-www-form-urlencoded" };
  const postForm = (browser: ApiClient, path: string, fields: Record<string, string>) =>
    browser.request("POST", path, { rawBody: new URLSearchParams(fields).toString(), headers: FORM });

  it("sends a new account to the welcome step (keeping redirectTo), which saves the name; an existing one goes on", async () => {
    const email = uniqueEmail("welcome");
    const browser = client();
    const code = await mailedCode(email, "sign-in");
    const signedIn = await postForm(browser, "/sign-in/code?step=code", { email, otp: code, redirectTo: "/account/sessions" });
    expect(signedIn.status).toBe(302);
    expect(signedIn.headers.get("location")).toBe(`/welcome?redirectTo=${encodeURIComponent("/account/sessions")}`);
    const welcome = await browser.get("/welcome?redirectTo=%2Faccount%2Fsessions");
    expect(welcome.status).toBe(200);
    expect(welcome.text).toContain("Your account was created");
    expect(welcome.text).toContain(`Signed in as`);

    const saved = await postForm(browser, "/welcome", { name: "  Ada  ", redirectTo: "/account/sessions" });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/account/sessions");
    expect((await browser.get("/api/auth/get-session")).body.user.name).toBe("Ada");
    // Elsewhere than this site, the welcome step goes on to the account instead.
    const offSite = await postForm(browser, "/welcome", { name: "Ada", redirectTo: "https://evil.example/" });
    expect(offSite.headers.get("location")).toBe("/account");
    // Once the account has a name, the welcome step is not shown again: opened directly, it goes on.
    const named = await browser.get("/welcome?redirectTo=%2Faccount%2Fsessions");
    expect(named.status).toBe(302);
    expect(named.headers.get("location")).toBe("/account/sessions");

    const again = await postForm(client(), "/sign-in/code?step=code", { email, otp: await mailedCode(email, "sign-in"), redirectTo: "" });
    expect(again.status).toBe(302);
    expect(new URL(again.headers.get("location")!, server.baseUrl).pathname).toBe("/account");
  });

  it("leaves the JSON API as it was: a new account by code has an empty name", async () => {
    const email = uniqueEmail("welcome-api");
    const response = await client().post("/api/auth/sign-in/email-otp", { email, otp: await mailedCode(email, "sign-in") });
    expect(response.status).toBe(200);
    expect(response.body.user).toMatchObject({ email, name: "" });
  });
});

describe("the /sign-in/code page when rate-limited", () => {
  let limited: TestServer;
  beforeAll(async () => {
    limited = await startServer({ env: { SMTP_URL: mailbox.url, AUTH_RATE_LIMIT: "on" } });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  const FORM = { "content-type": "application/x-www-form-urlencoded" };
  const postForm = (browser: ApiClient, step: "email" | "code", fields: Record<string, string>) =>
    browser.request("POST", `/sign-in/code?step=${step}`, { rawBody: new URLSearchParams(fields).toString(), headers: FORM });
  const escaped = (text: string) => text.replaceAll("&", "&amp;").replaceAll('"', "&quot;");

  it("keeps the address in the code form (and in 'Send a new code') when the code step is refused with 429", async () => {
    const browser = client(limited);
    const email = uniqueEmail("limited-code");
    let answer;
    for (let attempt = 0; attempt < 4; attempt += 1) answer = await postForm(browser, "code", { email, otp: "000000", redirectTo: "" });
    expect(answer!.status).toBe(429);
    expect(answer!.text).toMatch(/Too many attempts\. Try again in \d+ seconds?\./);
    expect(answer!.text).toContain("<title>Error: ");
    // Both the next try and "Send a new code" post the address without the user typing it again.
    const hidden = `type="hidden" name="email" value="${escaped(email)}"`;
    expect(answer!.text.split(hidden).length - 1).toBe(2);
    expect(answer!.text).toContain("Send a new code");
  });

  it("keeps the typed address in the e-mail step when sending is refused with 429", async () => {
    const browser = client(limited);
    const email = uniqueEmail("limited-send");
    let answer;
    for (let attempt = 0; attempt < 4; attempt += 1) answer = await postForm(browser, "email", { email, redirectTo: "" });
    expect(answer!.status).toBe(429);
    expect(answer!.text).toContain("Sign in with a code");
    expect(answer!.text).toContain(`value="${escaped(email)}"`);
  });
});
