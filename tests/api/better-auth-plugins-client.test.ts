// Better Auth's official client with its two-factor, username and email-otp plugins (issue 11) drives these
// flows against the real server; only the cookie jar a browser would keep is added.
import { createAuthClient } from "better-auth/client";
import { emailOTPClient, twoFactorClient, usernameClient } from "better-auth/client/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, uniqueEmail } from "../support/client";
import { mailCount, nextMail } from "../support/mail";
import type { Mailbox } from "../support/mailbox";
import { browserFetch } from "../support/better-auth";
import { sharedServer, useServerWithMailbox, type TestServer } from "../support/server";
import { query } from "../support/sql";
import { freshCode } from "../support/two-factor";

let server: TestServer;
let mailbox: Mailbox;
useServerWithMailbox({ AUTH_EMAIL_VERIFICATION: "off" }, (running) => ({ server, mailbox } = running));

/** The official client with a browser's cookie jar and Origin header, and the three plugins. */
function browserClient(onTwoFactorRedirect?: () => void, target = server) {
  const { customFetchImpl, jar } = browserFetch(target);
  return createAuthClient({
    baseURL: target.baseUrl,
    fetchOptions: { customFetchImpl },
    plugins: [twoFactorClient({ onTwoFactorRedirect }), usernameClient(), emailOTPClient()],
  });
}

const codeFrom = async (email: string, subject: RegExp, seen: number) =>
  (await nextMail(mailbox, email, subject, seen)).text.match(/Your code: (\d{6})/)![1];

describe("Better Auth's plugin clients against this server", () => {
  it("twoFactorClient: enable, confirm, sign in through each second factor, trust, regenerate, disable", async () => {
    const client = browserClient();
    const email = uniqueEmail("ba-2fa");
    const username = `ba_user.${Date.now().toString(36)}`;
    expect((await client.signUp.email({ name: "Two Factor", email, password: PASSWORD, username })).error).toBeNull();

    const enabled = await client.twoFactor.enable({ password: PASSWORD });
    expect(enabled.error).toBeNull();
    // The issue's wire shape is {totpURI, backupCodes}; newer clients' types also allow {method: "otp"}.
    const { totpURI, backupCodes } = enabled.data as { totpURI: string; backupCodes: string[] };
    expect(backupCodes).toHaveLength(10);
    expect((await client.twoFactor.getTotpUri({ password: PASSWORD })).data?.totpURI).toBe(totpURI);
    const used = new Set<number>();
    expect((await client.twoFactor.verifyTotp({ code: freshCode(totpURI, used) })).error).toBeNull();
    expect((await client.getSession()).data?.user.twoFactorEnabled).toBe(true);

    // Sign-in by e-mail stops for the second step and calls onTwoFactorRedirect.
    let redirected = 0;
    const laptop = browserClient(() => void redirected++);
    const first = await laptop.signIn.email({ email, password: PASSWORD });
    expect(first.data).toMatchObject({ twoFactorRedirect: true });
    expect(redirected).toBe(1);
    expect((await laptop.getSession()).data).toBeNull();
    const wrong = await laptop.twoFactor.verifyTotp({ code: "000000" });
    expect(wrong.error).toMatchObject({ status: 401, code: "INVALID_TWO_FACTOR_AUTHENTICATION" });
    const verified = await laptop.twoFactor.verifyTotp({ code: freshCode(totpURI, used) });
    expect(verified.error).toBeNull();
    expect((await laptop.getSession()).data?.user.email).toBe(email);

    // By username, then a backup code, trusting the device.
    const phone = browserClient(() => void redirected++);
    expect((await phone.signIn.username({ username: username.toUpperCase(), password: PASSWORD })).data).toMatchObject({ twoFactorRedirect: true });
    expect((await phone.twoFactor.verifyBackupCode({ code: backupCodes[0], trustDevice: true })).error).toBeNull();
    expect((await phone.getSession()).data?.user.email).toBe(email);
    await phone.signOut();
    const trusted = await phone.signIn.username({ username, password: PASSWORD });
    expect(trusted.error).toBeNull();
    expect(trusted.data).toMatchObject({ token: expect.any(String) });

    // By an e-mailed code, once chosen (an endpoint of this server's own, reached through the client's $fetch).
    const tablet = browserClient();
    expect((await tablet.signIn.email({ email, password: PASSWORD })).data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp"] });
    expect((await tablet.twoFactor.sendOtp()).error).toMatchObject({ status: 400, code: "OTP_NOT_ENABLED" });
    expect((await client.$fetch("/two-factor/set-otp", { method: "POST", body: { password: PASSWORD, enabled: true } })).error).toBeNull();
    expect((await tablet.signIn.email({ email, password: PASSWORD })).data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] });
    const seen = mailCount(mailbox, email, /two-factor code/);
    expect((await tablet.twoFactor.sendOtp()).error).toBeNull();
    expect((await tablet.twoFactor.verifyOtp({ code: await codeFrom(email, /two-factor code/, seen) })).error).toBeNull();
    expect((await tablet.getSession()).data?.user.email).toBe(email);

    // Without the attempt cookie.
    const stranger = browserClient();
    expect((await stranger.twoFactor.verifyBackupCode({ code: backupCodes[1] })).error).toMatchObject({ status: 401, code: "INVALID_TWO_FACTOR_COOKIE" });

    const renewed = await client.twoFactor.generateBackupCodes({ password: PASSWORD });
    expect(renewed.error).toBeNull();
    expect(renewed.data?.backupCodes).toHaveLength(10);
    expect((await client.twoFactor.disable({ password: PASSWORD })).error).toBeNull();
    expect((await client.getSession()).data?.user.twoFactorEnabled).toBe(false);
    expect((await browserClient().signIn.email({ email, password: PASSWORD })).data).toMatchObject({ token: expect.any(String) });
  });

  it("usernameClient: availability, sign-in by username, and its errors", async () => {
    const client = browserClient();
    const username = `Name.${Date.now().toString(36)}`;
    expect((await client.isUsernameAvailable({ username })).data).toEqual({ available: true });
    const email = uniqueEmail("ba-username");
    const signUp = await client.signUp.email({ name: "Named", email, password: PASSWORD, username });
    expect(signUp.data?.user).toMatchObject({ username: username.toLowerCase(), displayUsername: username });
    expect((await client.isUsernameAvailable({ username: username.toUpperCase() })).data).toEqual({ available: false });
    const taken = await browserClient().signUp.email({ name: "Other", email: uniqueEmail("ba-username"), password: PASSWORD, username });
    expect(taken.error).toMatchObject({ status: 422, message: "username is already taken. please try another." });

    const other = browserClient();
    const wrong = await other.signIn.username({ username, password: "not the password" });
    expect(wrong.error).toMatchObject({ status: 401, code: "INVALID_USERNAME_OR_PASSWORD", message: "invalid username or password" });
    const signedIn = await other.signIn.username({ username, password: PASSWORD });
    expect(signedIn.error).toBeNull();
    expect((await other.getSession()).data?.user.email).toBe(email);
    expect((await other.updateUser({ username: `${username}2` } as never)).error).toBeNull();
    expect((await other.getSession()).data?.user.username).toBe(`${username}2`.toLowerCase());
  });

  it("emailOTPClient: sign in by code (creating the account), verify, check, and reset the password", async () => {
    const client = browserClient();
    const email = uniqueEmail("ba-otp");
    let seen = mailCount(mailbox, email, /sign-in code/);
    expect((await client.emailOtp.sendVerificationOtp({ email, type: "sign-in" })).data).toEqual({ success: true });
    const code = await codeFrom(email, /sign-in code/, seen);
    const wrong = await client.signIn.emailOtp({ email, otp: code === "000000" ? "111111" : "000000" });
    expect(wrong.error).toMatchObject({ status: 400, code: "INVALID_OTP" });
    const signedIn = await client.signIn.emailOtp({ email, otp: code });
    expect(signedIn.error).toBeNull();
    expect(signedIn.data?.user).toMatchObject({ email, emailVerified: true });
    expect((await client.getSession()).data?.user.email).toBe(email);

    seen = mailCount(mailbox, email, /verification code/);
    await client.emailOtp.sendVerificationOtp({ email, type: "email-verification" });
    const verifyCode = await codeFrom(email, /verification code/, seen);
    expect((await client.emailOtp.checkVerificationOtp({ email, type: "email-verification", otp: verifyCode })).data).toEqual({ success: true });
    expect((await client.emailOtp.verifyEmail({ email, otp: verifyCode })).error).toBeNull();

    seen = mailCount(mailbox, email, /password reset code/);
    expect((await client.forgetPassword.emailOtp({ email })).data).toEqual({ success: true });
    const resetCode = await codeFrom(email, /password reset code/, seen);
    expect((await client.emailOtp.resetPassword({ email, otp: resetCode, password: PASSWORD })).data).toEqual({ success: true });
    expect((await browserClient().signIn.email({ email, password: PASSWORD })).error).toBeNull();
  });
});

// Issue 39 §3 (ADR 058): the new-device check rides the two-factor wire, so the official client needs no change.
describe("Better Auth's twoFactorClient with new-device verification on", () => {
  let checking: TestServer;
  beforeAll(async () => {
    checking = await sharedServer({ env: { AUTH_EMAIL_VERIFICATION: "off", AUTH_NEW_DEVICE_VERIFICATION: "on" }, mail: true });
  });
  afterAll(async () => {
    await checking?.stop();
  });

  it("a new browser's sign-in calls onTwoFactorRedirect; sendOtp and verifyOtp finish it", async () => {
    const email = uniqueEmail("ba-new-device");
    expect((await browserClient(undefined, checking).signUp.email({ name: "New Device", email, password: PASSWORD })).error).toBeNull();
    await query(checking.database, `UPDATE "user" SET "emailVerified" = (1=1) WHERE "email" = ?`, [email]);
    let redirected = 0;
    const laptop = browserClient(() => void redirected++, checking);
    let seen = mailCount(mailbox, email, /Confirm it's you/);
    const first = await laptop.signIn.email({ email, password: PASSWORD });
    expect(first.data).toEqual({ twoFactorRedirect: true, twoFactorMethods: ["otp"], newDeviceVerification: true });
    expect(redirected).toBe(1);
    expect((await laptop.getSession()).data).toBeNull();
    await codeFrom(email, /Confirm it's you/, seen);
    seen = mailCount(mailbox, email, /Confirm it's you/);
    expect((await laptop.twoFactor.sendOtp()).error).toBeNull();
    expect((await laptop.twoFactor.verifyOtp({ code: await codeFrom(email, /Confirm it's you/, seen) })).error).toBeNull();
    expect((await laptop.getSession()).data?.user.email).toBe(email);
  });
});
