// A second factor independent of the first (issue 24 items 1 and 5, docs/decisions/027-second-factor-independence.md):
// for every first factor, with the authenticator app on and the e-mailed code chosen or not, which second factors
// `twoFactorMethods` lists, and that /two-factor/send-otp and /verify-otp follow it. The e-mailed code is offered
// only to users who chose it, and never after a first factor that rests on the inbox (an e-mailed sign-in code,
// a provider account, a password last set by an e-mailed reset). A passkey without user verification does not
// sign in an account with two-factor on.
import { beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, uniqueEmail, shownText } from "../support/client";
import { TEST_SSO_CLIENT_ID, useServerWithProvider, type TestSso } from "../support/identity-provider";
import { COOKIE, setCookie } from "../support/cookies";
import { mailCount, nextMail } from "../support/mail";
import type { Mailbox } from "../support/mailbox";
import type { TestServer } from "../support/server";
import { query } from "../support/sql";
import { chooseEmailedCode, enableTwoFactor, freshCode } from "../support/two-factor";
import { SoftAuthenticator } from "../support/webauthn";

const CLIENT_ID = TEST_SSO_CLIENT_ID;
const TF = "/api/auth/two-factor";
const TWO_FACTOR_COOKIE = "latchkey.two_factor";
const APP_ONLY = ["totp"];
const APP_OR_MAIL = ["totp", "otp"];

let sso: TestSso;
let mailbox: Mailbox;
let server: TestServer;
useServerWithProvider({ AUTH_EMAIL_VERIFICATION: "off" }, (running) => ({ server, mailbox, sso } = running));

const browser = () => new ApiClient(server.baseUrl);
const TRUE = () => (server.database.kind === "sqlite" ? 1 : true);

interface ProtectedUser {
  email: string;
  username: string;
  password: string;
  subject: Record<string, unknown>;
  authenticator: SoftAuthenticator;
  backupCodes: string[];
  totpURI: string;
  used: Set<number>;
}

/**
 * A verified user with every first factor — a password, a username, a linked provider identity, a passkey — and
 * two-factor on (the authenticator app); `emailedCode` also chooses the e-mailed second factor.
 */
async function protectedUser(emailedCode: boolean): Promise<ProtectedUser> {
  const owner = browser();
  const email = uniqueEmail("independent");
  const username = `ind_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const created = await owner.post("/api/auth/sign-up/email", { name: "Ada Independent", email, password: PASSWORD, username });
  expect(created.status, created.text).toBe(200);
  await query(server.database, `UPDATE "user" SET "emailVerified" = ? WHERE "email" = ?`, [TRUE(), email]);

  const authenticator = new SoftAuthenticator(server.origin);
  const options = await owner.get("/api/auth/passkey/generate-register-options");
  const registered = await owner.post("/api/auth/passkey/verify-registration", { response: authenticator.register(options.body).response });
  expect(registered.status, registered.text).toBe(200);

  const subject = { sub: `sub-${email}`, email, email_verified: true, name: "Ada Independent" };
  const { callback } = await approve(owner, "/api/auth/link-social", subject);
  expect((await owner.get(callback)).headers.get("location")).toBe(`${server.baseUrl}/account`);

  const { backupCodes, totpURI, used } = await enableTwoFactor(owner);
  if (emailedCode) await chooseEmailedCode(owner);
  return { email, username, password: PASSWORD, subject, authenticator, backupCodes, totpURI, used };
}

/** Starts a provider round trip in `client` as `subject` and returns the callback URL the provider sent the browser back to. */
async function approve(client: ApiClient, path: string, subject: Record<string, unknown>) {
  const { start, callback } = await sso.approve(client, path, subject);
  expect(start.status, start.text).toBe(200);
  return { callback: callback! };
}

/** The first factors, each in a new browser; each answers the sign-in's JSON (or null for the redirect path). */
const FIRST_FACTORS = {
  password: (user: ProtectedUser, client: ApiClient) => client.post("/api/auth/sign-in/email", { email: user.email, password: user.password }),
  username: (user: ProtectedUser, client: ApiClient) => client.post("/api/auth/sign-in/username", { username: user.username, password: user.password }),
  "e-mail code": async (user: ProtectedUser, client: ApiClient) => {
    const seen = mailCount(mailbox, user.email, /sign-in code/);
    expect((await client.post("/api/auth/email-otp/send-verification-otp", { email: user.email, type: "sign-in" })).status).toBe(200);
    const otp = (await nextMail(mailbox, user.email, /sign-in code/, seen)).text.match(/Your code: (\d{6})/)![1];
    return client.post("/api/auth/sign-in/email-otp", { email: user.email, otp });
  },
  "social (ID token)": async (user: ProtectedUser, client: ApiClient) => {
    const token = await sso.idp.issuer.buildToken({
      scopesOrTransform: (_header, payload) => Object.assign(payload, user.subject, { aud: CLIENT_ID, nonce: "matrix-nonce" }),
    });
    return client.post("/api/auth/sign-in/social", { provider: "oidc", idToken: { token, nonce: "matrix-nonce" } });
  },
};

/** What a sign-in waiting for its second step must accept and refuse, given the methods it lists. */
async function expectSecondStep(user: ProtectedUser, client: ApiClient, methods: string[]) {
  expect(client.cookies.has(COOKIE.sessionToken)).toBe(false);
  expect(client.cookies.has(TWO_FACTOR_COOKIE)).toBe(true);
  const page = await client.get("/two-factor");
  expect(page.status).toBe(200);
  if (methods.includes("otp")) {
    expect(page.text).toContain("Email me a code");
    const seen = mailCount(mailbox, user.email, /two-factor code/);
    const sent = await client.post(`${TF}/send-otp`, {});
    expect(sent.status, sent.text).toBe(200);
    const code = (await nextMail(mailbox, user.email, /two-factor code/, seen)).text.match(/\b(\d{6})\b/)![1];
    const done = await client.post(`${TF}/verify-otp`, { code });
    expect(done.status, done.text).toBe(200);
    expect(done.body.user.email).toBe(user.email);
    return;
  }
  expect(shownText(page.text)).not.toContain("Email me a code");
  const seen = mailCount(mailbox, user.email, /two-factor code/);
  for (const path of ["send-otp", "verify-otp"]) {
    const refused = await client.post(`${TF}/${path}`, { code: "123456" });
    expect(refused.status, `${path}: ${refused.text}`).toBe(400);
    expect(refused.body).toEqual({ code: "OTP_NOT_ENABLED", message: "OTP not enabled" });
  }
  expect(mailCount(mailbox, user.email, /two-factor code/)).toBe(seen);
  // The refusals ended nothing: a backup code (always allowed, never listed) still finishes the sign-in.
  const done = await client.post(`${TF}/verify-backup-code`, { code: user.backupCodes.pop() });
  expect(done.status, done.text).toBe(200);
}

async function resetByLink(user: ProtectedUser, newPassword: string) {
  const seen = mailCount(mailbox, user.email, /[Rr]eset/);
  expect((await browser().post("/api/auth/request-password-reset", { email: user.email })).status).toBe(200);
  const link = (await nextMail(mailbox, user.email, /[Rr]eset/, seen)).links.find((l) => l.includes("/reset-password/"))!;
  const token = new URL(link).pathname.split("/").at(-1)!;
  const reset = await browser().post("/api/auth/reset-password", { token, newPassword });
  expect(reset.status, reset.text).toBe(200);
  user.password = newPassword;
}

async function resetByCode(user: ProtectedUser, newPassword: string) {
  const seen = mailCount(mailbox, user.email, /password reset code/);
  expect((await browser().post("/api/auth/email-otp/request-password-reset", { email: user.email })).status).toBe(200);
  const otp = (await nextMail(mailbox, user.email, /password reset code/, seen)).text.match(/Your code: (\d{6})/)![1];
  const reset = await browser().post("/api/auth/email-otp/reset-password", { email: user.email, otp, password: newPassword });
  expect(reset.status, reset.text).toBe(200);
  user.password = newPassword;
}

describe.each([
  { emailedCode: false, expected: { password: APP_ONLY, username: APP_ONLY } },
  { emailedCode: true, expected: { password: APP_OR_MAIL, username: APP_OR_MAIL } },
])("two-factor on, the e-mailed code chosen: $emailedCode", ({ emailedCode, expected }) => {
  let user: ProtectedUser;
  beforeAll(async () => {
    user = await protectedUser(emailedCode);
  });

  it.each([
    ["password", expected.password],
    ["username", expected.username],
    // The code proved the inbox: a second code to the same inbox proves nothing more.
    ["e-mail code", APP_ONLY],
    // A provider account is as a rule recoverable through (or is) the same mailbox.
    ["social (ID token)", APP_ONLY],
  ] as const)("a %s sign-in lists twoFactorMethods %j, and send-otp/verify-otp follow it", async (factor, methods) => {
    const client = browser();
    const response = await FIRST_FACTORS[factor](user, client);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toEqual({ twoFactorRedirect: true, twoFactorMethods: methods });
    await expectSecondStep(user, client, [...methods]);
  });

  it("a social sign-in through the provider's redirect opens the app (and backup codes) only", async () => {
    const client = browser();
    const { callback } = await approve(client, "/api/auth/sign-in/social", user.subject);
    const back = await client.get(callback);
    expect(back.status).toBe(302);
    expect(new URL(back.headers.get("location")!).pathname).toBe("/two-factor");
    await expectSecondStep(user, client, APP_ONLY);
  });

  it("a passkey that verified the person signs in (it is both factors); one without user verification is refused", async () => {
    const client = browser();
    const refused = await client.post("/api/auth/passkey/verify-authentication", {
      response: user.authenticator.authenticate((await client.post("/api/auth/passkey/generate-authenticate-options", {})).body, undefined, { userVerified: false }),
    });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body.code).toBe("AUTH_CANCELLED");
    expect(setCookie(refused, COOKIE.sessionToken)).toBeUndefined();
    expect(client.cookies.has(TWO_FACTOR_COOKIE)).toBe(false);
    expect((await client.get("/api/auth/get-session")).body).toBeNull();

    const verified = await client.post("/api/auth/passkey/verify-authentication", {
      response: user.authenticator.authenticate((await client.post("/api/auth/passkey/generate-authenticate-options", {})).body),
    });
    expect(verified.status, verified.text).toBe(200);
    expect((await client.get("/api/auth/get-session")).body.user.email).toBe(user.email);
    // No attempt was opened, so there is nothing for an e-mailed code to finish.
    expect((await client.post(`${TF}/send-otp`, {})).body.code).toBe("INVALID_TWO_FACTOR_COOKIE");
  });

  it("a password reset by an e-mailed link or code opens the app only, until the password is changed signed in", async () => {
    for (const reset of [resetByLink, resetByCode]) {
      await reset(user, `reset through the inbox ${Math.random()}`);
      for (const factor of ["password", "username"] as const) {
        const client = browser();
        const response = await FIRST_FACTORS[factor](user, client);
        expect(response.body, `${reset.name}, ${factor}`).toEqual({ twoFactorRedirect: true, twoFactorMethods: APP_ONLY });
        await expectSecondStep(user, client, APP_ONLY);
      }
    }
    // Changing it with the current password inside a session (which passed the second factor) clears the mark.
    const owner = browser();
    await FIRST_FACTORS.password(user, owner);
    expect((await owner.post(`${TF}/verify-totp`, { code: freshCode(user.totpURI, user.used) })).status).toBe(200);
    const changed = await owner.post("/api/auth/change-password", { currentPassword: user.password, newPassword: "chosen while signed in 42" });
    expect(changed.status, changed.text).toBe(200);
    user.password = "chosen while signed in 42";
    const client = browser();
    expect((await FIRST_FACTORS.password(user, client)).body).toEqual({ twoFactorRedirect: true, twoFactorMethods: expected.password });
    await expectSecondStep(user, client, expected.password);
  });
});

describe("POST /two-factor/set-otp", () => {
  it("asks for the password, needs two-factor on, and is off for every user until chosen", async () => {
    const client = browser();
    const email = uniqueEmail("set-otp");
    expect((await client.post("/api/auth/sign-up/email", { name: "Set Otp", email, password: PASSWORD })).status).toBe(200);
    expect((await browser().post(`${TF}/set-otp`, { password: PASSWORD, enabled: true })).body.code).toBe("UNAUTHORIZED");
    const notOn = await client.post(`${TF}/set-otp`, { password: PASSWORD, enabled: true });
    expect(notOn.status).toBe(400);
    expect(notOn.body.code).toBe("TWO_FACTOR_ISNT_ENABLED");
    await enableTwoFactor(client);
    const rows = () => query<{ otpEnabled: unknown }>(server.database, `SELECT t."otpEnabled" FROM "twoFactor" t JOIN "user" u ON u."id" = t."userId" WHERE u."email" = ?`, [email]);
    expect(Boolean((await rows())[0].otpEnabled)).toBe(false);
    const wrong = await client.post(`${TF}/set-otp`, { password: "not the password", enabled: true });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe("INVALID_PASSWORD");
    expect((await client.post(`${TF}/set-otp`, { password: PASSWORD })).body.code).toBe("VALIDATION_ERROR");
    const on = await client.post(`${TF}/set-otp`, { password: PASSWORD, enabled: true });
    expect(on.status).toBe(200);
    expect(on.body).toEqual({ status: true });
    expect(Boolean((await rows())[0].otpEnabled)).toBe(true);
    expect((await browser().post("/api/auth/sign-in/email", { email, password: PASSWORD })).body.twoFactorMethods).toEqual(APP_OR_MAIL);
    expect((await client.post(`${TF}/set-otp`, { password: PASSWORD, enabled: false })).status).toBe(200);
    expect((await browser().post("/api/auth/sign-in/email", { email, password: PASSWORD })).body.twoFactorMethods).toEqual(APP_ONLY);
  });

  it("the account page's control works without JavaScript", async () => {
    const client = browser();
    const email = uniqueEmail("set-otp-page");
    expect((await client.post("/api/auth/sign-up/email", { name: "Set Otp Page", email, password: PASSWORD })).status).toBe(200);
    await enableTwoFactor(client);
    const form = (body: Record<string, string>, intent: string) =>
      client.request("POST", `/account/two-factor?intent=${intent}`, {
        rawBody: new URLSearchParams(body).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
    expect((await client.get("/account/two-factor")).text).toContain("Allow codes by email");
    const refused = await form({ password: "not the password" }, "enable-otp");
    expect(refused.status).toBe(400);
    const on = await form({ password: PASSWORD }, "enable-otp");
    expect(on.status).toBe(302);
    const page = await client.get("/account/two-factor");
    expect(page.text).toContain("Signing in can now finish with a code by email.");
    expect(page.text).toContain("Stop offering codes by email");
    expect((await browser().post("/api/auth/sign-in/email", { email, password: PASSWORD })).body.twoFactorMethods).toEqual(APP_OR_MAIL);
    expect((await form({ password: PASSWORD }, "disable-otp")).status).toBe(302);
    expect((await browser().post("/api/auth/sign-in/email", { email, password: PASSWORD })).body.twoFactorMethods).toEqual(APP_ONLY);
  });
});

describe("passkey sign-in without two-factor", () => {
  it("still accepts an assertion without user verification, as before", async () => {
    const owner = browser();
    const email = uniqueEmail("no-2fa-passkey");
    expect((await owner.post("/api/auth/sign-up/email", { name: "Plain", email, password: PASSWORD })).status).toBe(200);
    const authenticator = new SoftAuthenticator(server.origin);
    const options = await owner.get("/api/auth/passkey/generate-register-options");
    expect((await owner.post("/api/auth/passkey/verify-registration", { response: authenticator.register(options.body).response })).status).toBe(200);
    const client = browser();
    const signedIn = await client.post("/api/auth/passkey/verify-authentication", {
      response: authenticator.authenticate((await client.post("/api/auth/passkey/generate-authenticate-options", {})).body, undefined, { userVerified: false }),
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body.user.email).toBe(email);
  });
});
