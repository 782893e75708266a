// A Facebook-like provider (issue 37 item 7; docs/decisions/028-claim-on-proof.md as amended): the local OpenID
// server sending no `email_verified` (or `false`), so the provider does not vouch for the address. A new address
// starts a new, unverified, never-proven account that gets the usual verification mail; an address that already
// has an account joins nothing, by the redirect or the ID token; and the owner proving the inbox later from
// another browser claims the account like any other unproven setup, which ends the provider link. With
// verification required, the account is made but waits for its link, and a taken address gets the same answer.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { COOKIE, setCookie } from "../support/cookies";
import { TEST_SSO_CLIENT_ID, useServerWithProvider, type TestSso } from "../support/identity-provider";
import type { Mailbox } from "../support/mailbox";
import { mailCount, nextMail } from "../support/mail";
import { startServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

let sso: TestSso;
let mailbox: Mailbox;
let server: TestServer; // verification optional (the default)
let required: TestServer; // AUTH_EMAIL_VERIFICATION=required, same provider and database

useServerWithProvider({}, (running) => ({ server, mailbox, sso } = running));
beforeAll(async () => {
  required = await startServer({ env: { SMTP_URL: mailbox.url, ...sso.env, AUTH_EMAIL_VERIFICATION: "required" }, database: server.database });
});
afterAll(async () => {
  await required?.stop();
});

const VERIFY = /Verify your email address/;
const SIGN_UP_BROWSER = "latchkey.verification_browser";
const browser = (target = server) => new ApiClient(target.baseUrl);
const truthy = () => (server.database.kind === "sqlite" ? 1 : true);

/** An identity at a provider that says nothing about whether the address is confirmed (as Facebook never does). */
const facebookLike = (email: string, extra: Record<string, unknown> = {}) => ({ sub: `fb-${email}`, email, name: "Fay Book", ...extra });

/** The provider's round trip from `client`'s browser as `subject`: the callback's answer. */
async function throughProvider(client: ApiClient, subject: Record<string, unknown>) {
  const { start, callback } = await sso.approve(client, "/api/auth/sign-in/social", subject);
  expect(start.status, start.text).toBe(200);
  return client.get(callback!);
}

/** The ID-token path of /sign-in/social with a token the provider signed for `subject`. */
async function withIdToken(client: ApiClient, subject: Record<string, unknown>) {
  const nonce = `n-${Math.random().toString(36).slice(2)}`;
  const token = await sso.idp.issuer.buildToken({
    scopesOrTransform: (_header, payload) => Object.assign(payload, subject, { aud: TEST_SSO_CLIENT_ID, nonce }),
  });
  return client.post("/api/auth/sign-in/social", { provider: "oidc", idToken: { token, nonce } });
}

async function userRow(email: string) {
  const [row] = await query<{ id: string; emailVerified: unknown; inboxProvenAt: unknown }>(
    server.database,
    `SELECT "id", "emailVerified", "inboxProvenAt" FROM "user" WHERE "email" = ?`,
    [email],
  );
  return row;
}

const linksOf = (subject: { sub: string }) => count(server.database, "account", `"providerId" = 'oidc' AND "accountId" = ?`, [subject.sub]);

async function signInCode(email: string) {
  const seen = mailCount(mailbox, email, /sign-in code/);
  expect((await browser().post("/api/auth/email-otp/send-verification-otp", { email, type: "sign-in" })).status).toBe(200);
  return (await nextMail(mailbox, email, /sign-in code/, seen)).text.match(/Your code: (\d{6})/)![1];
}

describe("a new address the provider does not vouch for", () => {
  it("creates a new unverified account, signs it in, binds this browser and mails the usual verification link", async () => {
    const email = uniqueEmail("facebook-like");
    const subject = facebookLike(email);
    const client = browser();
    const back = await throughProvider(client, subject);
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe(`${server.baseUrl}/account`);
    expect(setCookie(back, COOKIE.sessionToken)?.value).toBeTruthy();
    expect(setCookie(back, SIGN_UP_BROWSER)?.value).toBeTruthy();
    expect((await client.get("/api/auth/get-session")).body.user).toMatchObject({ email, name: "Fay Book", emailVerified: false });
    const row = await userRow(email);
    expect(Boolean(row.emailVerified)).toBe(false);
    expect(row.inboxProvenAt).toBeNull(); // never proven: the claim covers it
    expect(await count(server.database, "account", `"userId" = ?`, [row.id])).toBe(1);
    expect(await linksOf(subject)).toBe(1);
    expect((await mailbox.waitFor(email, VERIFY)).subject).toMatch(VERIFY);

    // The identity is linked now: it signs in through the link, to the same account.
    const again = await throughProvider(browser(), subject);
    expect(again.headers.get("location")).toBe(`${server.baseUrl}/account`);
    expect(setCookie(again, COOKIE.sessionToken)?.value).toBeTruthy();
    expect(await count(server.database, "user", `"email" = ?`, [email])).toBe(1);
  });

  it("does the same on the ID-token path, with `email_verified: false`", async () => {
    const email = uniqueEmail("unvouched-token");
    const response = await withIdToken(browser(), facebookLike(email, { email_verified: false }));
    expect(response.status, response.text).toBe(200);
    expect(response.body.user).toMatchObject({ email, emailVerified: false });
    expect(response.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect((await userRow(email)).inboxProvenAt).toBeNull();
    await mailbox.waitFor(email, VERIFY);
  });

  it("still answers email_not_found for an identity that shares no address at all", async () => {
    const back = await throughProvider(browser(), { sub: `no-mail-${Date.now()}`, name: "Nobody" });
    expect(back.headers.get("location")).toBe(`${server.baseUrl}/api/auth/error?error=email_not_found`);
  });
});

describe("an address the provider does not vouch for that an account already has", () => {
  it("joins nothing, verified account or not, by the redirect or the ID token (account not linked)", async () => {
    const unverified = await signUp(browser());
    const verified = await signUp(browser());
    await query(server.database, `UPDATE "user" SET "emailVerified" = ? WHERE "id" = ?`, [truthy(), verified.user.id]);
    for (const { email, user } of [unverified, verified]) {
      for (const extra of [{}, { email_verified: false }]) {
        const subject = facebookLike(email, { ...extra, sub: `join-${"email_verified" in extra ? "false" : "absent"}-${email}` });
        const back = await throughProvider(browser(), subject);
        expect(back.headers.get("location")).toBe(`${server.baseUrl}/api/auth/error?error=account+not+linked`);
        expect(setCookie(back, COOKIE.sessionToken)).toBeUndefined();
        const token = await withIdToken(browser(), subject);
        expect(token.status).toBe(401);
        expect(token.body).toEqual({ code: "ACCOUNT_NOT_LINKED", message: "account not linked" });
        expect(await linksOf(subject)).toBe(0);
      }
      expect(await count(server.database, "account", `"userId" = ?`, [user.id])).toBe(1); // the password alone
      expect(await count(server.database, "user", `"email" = ?`, [email])).toBe(1);
    }
    // The sign-in page says what happened and the way on.
    const page = await browser().get("/sign-in?error=account+not+linked");
    expect(page.text).toContain("An account with this email address already exists");
  });
});

describe("the claim covers an account a provider's unvouched address created", () => {
  it("the owner signing in by e-mailed code from another browser claims it: the provider link and its sessions end", async () => {
    const email = uniqueEmail("claimed");
    const subject = facebookLike(email);
    const creator = browser();
    expect(setCookie(await throughProvider(creator, subject), COOKIE.sessionToken)?.value).toBeTruthy();
    const { id } = await userRow(email);

    const owner = browser();
    const signedIn = await owner.post("/api/auth/sign-in/email-otp", { email, otp: await signInCode(email) });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body.user).toMatchObject({ id, emailVerified: true });
    expect((await creator.get("/api/auth/get-session")).body).toBeNull();
    expect(await linksOf(subject)).toBe(0);
    expect(await count(server.database, "session", `"userId" = ?`, [id])).toBe(1); // the owner's
    expect((await userRow(email)).inboxProvenAt).not.toBeNull();

    // The identity no longer gets in, nor joins the owner's account.
    const back = await throughProvider(browser(), subject);
    expect(back.headers.get("location")).toBe(`${server.baseUrl}/api/auth/error?error=account+not+linked`);
    expect(await linksOf(subject)).toBe(0);
  });

  it("the owner resetting the password from another browser claims it too", async () => {
    const email = uniqueEmail("reset-claim");
    const subject = facebookLike(email, { email_verified: false });
    expect((await withIdToken(browser(), subject)).status).toBe(200);
    const seen = mailCount(mailbox, email, /password reset code/);
    expect((await browser().post("/api/auth/email-otp/send-verification-otp", { email, type: "forget-password" })).status).toBe(200);
    const otp = (await nextMail(mailbox, email, /password reset code/, seen)).text.match(/Your code: (\d{6})/)![1];
    const reset = await browser().post("/api/auth/email-otp/reset-password", { email, otp, password: PASSWORD });
    expect(reset.status, reset.text).toBe(200);
    expect(await linksOf(subject)).toBe(0);
    expect((await browser().post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
  });

  it("the person who signed up, proving the inbox in the same browser, keeps the provider link", async () => {
    const email = uniqueEmail("creator");
    const subject = facebookLike(email);
    const creator = browser();
    await throughProvider(creator, subject);
    const seen = mailCount(mailbox, email, /verification code/);
    expect((await browser().post("/api/auth/email-otp/send-verification-otp", { email, type: "email-verification" })).status).toBe(200);
    const otp = (await nextMail(mailbox, email, /verification code/, seen)).text.match(/Your code: (\d{6})/)![1];
    expect((await creator.post("/api/auth/email-otp/verify-email", { email, otp })).status).toBe(200);
    expect((await creator.get("/api/auth/get-session")).body.user).toMatchObject({ email, emailVerified: true });
    expect(await linksOf(subject)).toBe(1);
    expect(setCookie(await throughProvider(browser(), subject), COOKIE.sessionToken)?.value).toBeTruthy();
  });
});

describe("with verification required", () => {
  it("creates the unverified account and mails its link, but signs nobody in until the address is verified", async () => {
    const email = uniqueEmail("required");
    const subject = facebookLike(email);
    const client = browser(required);
    const back = await throughProvider(client, subject);
    expect(back.headers.get("location")).toBe(`${required.baseUrl}/api/auth/error?error=email_not_verified`);
    expect(setCookie(back, COOKIE.sessionToken)).toBeUndefined();
    expect(setCookie(back, SIGN_UP_BROWSER)?.value).toBeTruthy();
    expect(Boolean((await userRow(email)).emailVerified)).toBe(false);
    expect(await linksOf(subject)).toBe(1);
    await mailbox.waitFor(email, VERIFY);

    // The linked identity is refused too until then, by either path, as a password would be.
    const token = await withIdToken(browser(required), subject);
    expect(token.status).toBe(403);
    expect(token.body).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });

    // Verified (by code, in the browser that signed up): the identity signs in, and its link was kept.
    const seen = mailCount(mailbox, email, /verification code/);
    expect((await browser(required).post("/api/auth/email-otp/send-verification-otp", { email, type: "email-verification" })).status).toBe(200);
    const otp = (await nextMail(mailbox, email, /verification code/, seen)).text.match(/Your code: (\d{6})/)![1];
    expect((await client.post("/api/auth/email-otp/verify-email", { email, otp })).status).toBe(200);
    const after = await throughProvider(browser(required), subject);
    expect(after.headers.get("location")).toBe(`${required.baseUrl}/account`);
    expect(setCookie(after, COOKIE.sessionToken)?.value).toBeTruthy();
  });

  it("answers an address that has an account exactly as a new one, joins nothing and tells the owner", async () => {
    const owner = await signUp(browser(required));
    const subject = facebookLike(owner.email);
    const back = await throughProvider(browser(required), subject);
    expect(back.headers.get("location")).toBe(`${required.baseUrl}/api/auth/error?error=email_not_verified`);
    expect(setCookie(back, COOKIE.sessionToken)).toBeUndefined();
    expect(setCookie(back, SIGN_UP_BROWSER)?.value).toBeTruthy();
    const token = await withIdToken(browser(required), { ...subject, email_verified: false });
    expect(token.status).toBe(403);
    expect(token.body.code).toBe("EMAIL_NOT_VERIFIED");
    expect(await linksOf(subject)).toBe(0);
    expect(await count(server.database, "account", `"userId" = ?`, [owner.user.id])).toBe(1);
    await mailbox.waitFor(owner.email, /Someone tried to create an account/);
  });
});
