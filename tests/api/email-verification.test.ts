// E-mail verification (issue 3): POST /send-verification-email, GET /verify-email and the
// AUTH_EMAIL_VERIFICATION modes, against a real SMTP server; plus delivery without SMTP (the server log).
// Outside the account's own browser a link that would change the account changes nothing when opened (issue 37):
// the person confirms it by POST /verify-email, which answers what the link's GET answers in the own browser.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { COOKIE, setCookie } from "../support/cookies";
import { checkMail, expectNoNewMail, mailCount, nextMail, sleep, tamperPayload, tamperSignature, withParam } from "../support/mail";
import { actionLink, type Mailbox } from "../support/mailbox";
import { sharedMailbox, sharedServer, startServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";
import { chooseEmailedCode, enableTwoFactor, freshCode } from "../support/two-factor";

const SEND = "/api/auth/send-verification-email";
const VERIFY = /Verify your email address/;
const MAIL_FROM = "Latchkey Tests <auth@tests.example>";

let mailbox: Mailbox;
let server: TestServer; // optional (the default), auto sign-in on
let shortTtl: TestServer; // AUTH_EMAIL_VERIFICATION_TTL=1
let noAutoSignIn: TestServer; // AUTH_AUTO_SIGN_IN_AFTER_VERIFICATION=off
let required: TestServer; // AUTH_EMAIL_VERIFICATION=required
let off: TestServer; // AUTH_EMAIL_VERIFICATION=off
let logOnly: TestServer; // no SMTP_URL: mail goes to the server log (and /dev/outbox)

beforeAll(async () => {
  mailbox = await sharedMailbox();
  const smtp = { SMTP_URL: mailbox.url };
  [server, shortTtl, noAutoSignIn, required, off, logOnly] = await Promise.all([
    sharedServer({ env: { ...smtp, MAIL_FROM } }),
    sharedServer({ env: { ...smtp, AUTH_EMAIL_VERIFICATION_TTL: "1" } }),
    sharedServer({ env: { ...smtp, AUTH_AUTO_SIGN_IN_AFTER_VERIFICATION: "off" } }),
    // Its own: a test reads its log.
    startServer({ env: { ...smtp, AUTH_EMAIL_VERIFICATION: "required" } }),
    sharedServer({ env: { ...smtp, AUTH_EMAIL_VERIFICATION: "off" } }),
    // Its own: the tests read its log.
    startServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([server, shortTtl, noAutoSignIn, required, off, logOnly].map((s) => s?.stop()));
  await mailbox?.stop();
});

/** Signs up on `target` and returns the account, its signed-in client and the link of its sign-up mail. */
async function signUpWithMail(target: TestServer, box = mailbox, overrides: { email?: string } = {}) {
  const client = new ApiClient(target.baseUrl);
  const account = await signUp(client, overrides);
  const link = actionLink(await box.waitFor(account.email, VERIFY));
  return { ...account, client, link };
}

const tokenOf = (link: string) => new URL(link).searchParams.get("token")!;

/**
 * The person confirming a mailed link outside the account's own browser (issue 37): POST /verify-email with the
 * link's token and, when the link has one, its callbackURL (a redirect then, JSON without).
 */
function confirmLink(client: ApiClient, link: string, headers?: Record<string, string>) {
  const url = new URL(link);
  const callbackURL = url.searchParams.get("callbackURL");
  return client.post("/api/auth/verify-email", { token: url.searchParams.get("token") ?? "", ...(callbackURL === null ? {} : { callbackURL }) }, headers);
}

/** Where a link opened outside the account's own browser sends a browser (or a client given a callbackURL). */
function confirmPageOf(target: TestServer, link: string) {
  const url = new URL(link);
  const callbackURL = url.searchParams.get("callbackURL");
  const query = new URLSearchParams({ token: url.searchParams.get("token") ?? "", ...(callbackURL === null ? {} : { callbackURL }) });
  return `${target.baseUrl}/confirm-email?${query}`;
}

async function emailVerified(target: TestServer, userId: string): Promise<boolean> {
  const rows = await query<{ emailVerified: unknown }>(target.database, `SELECT "emailVerified" FROM "user" WHERE "id" = ?`, [userId]);
  return rows[0].emailVerified === true || rows[0].emailVerified === 1;
}

describe("the mail sent on sign-up (optional mode, the default)", () => {
  it("sends a verification mail on sign-up whose link verifies the address and signs the browser in", async () => {
    const client = new ApiClient(server.baseUrl);
    const { email, user } = await signUp(client);
    const mail = await mailbox.waitFor(email, VERIFY);
    expect(mail.from).toContain("auth@tests.example"); // MAIL_FROM
    const link = checkMail(mail, server.baseUrl, "1 hour");
    expect(link.startsWith(`${server.baseUrl}/api/auth/verify-email?token=`)).toBe(true);
    expect(new URL(link).searchParams.get("callbackURL")).toBe("/email-verified");
    // HS256-signed (spec §9)
    expect(JSON.parse(Buffer.from(tokenOf(link).split(".")[0], "base64url").toString())).toMatchObject({ alg: "HS256" });
    expect(mail.text).toContain(email);

    // Opened in another browser (a mail client's, or a victim's the link was forwarded to), the link changes
    // nothing and sends the browser to its page, which asks (issue 37).
    const browser = new ApiClient(server.baseUrl);
    const opened = await browser.get(link);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(confirmPageOf(server, link));
    expect(setCookie(opened, COOKIE.sessionToken)).toBeUndefined();
    expect(await emailVerified(server, user.id)).toBe(false);
    expect((await client.get("/api/auth/get-session?disableCookieCache=true")).body.user.id).toBe(user.id);
    // Confirmed there, it verifies the address but signs nobody in: otherwise anyone could sign a stranger's
    // browser into their own account.
    const response = await confirmLink(browser, link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect(setCookie(response, COOKIE.sessionToken)).toBeUndefined();
    expect((await browser.get("/api/auth/get-session")).body).toBeNull();
    expect(await emailVerified(server, user.id)).toBe(true);
    // Proven from another browser, the never-proven account is claimed (ADR 028): the sign-up session ended.
    expect((await client.get("/api/auth/get-session?disableCookieCache=true")).body).toBeNull();
  });

  it("signs in only the browser that signed up (AUTH_EMAIL_VERIFICATION=required: no session before the link)", async () => {
    const browser = new ApiClient(required.baseUrl);
    const { email, user } = await signUp(browser);
    const link = actionLink(await mailbox.waitFor(email, VERIFY));
    expect((await browser.get("/api/auth/get-session")).body).toBeNull();
    const response = await browser.get(link);
    expect(response.status).toBe(302);
    // Auto sign-in after verification is on by default.
    expect(setCookie(response, COOKIE.sessionToken)?.value).toBeTruthy();
    expect((await browser.get("/api/auth/get-session")).body.user).toMatchObject({ id: user.id, emailVerified: true });
  });

  it("does not sign in a browser that signed up another account, nor one that signed out", async () => {
    const mine = new ApiClient(required.baseUrl);
    await signUp(mine);
    const theirs = await signUpWithMail(required, mailbox);
    // Not the account's own browser: the link waits for a confirmation, which verifies but signs nobody in.
    const opened = await mine.get(theirs.link);
    expect(opened.headers.get("location")).toBe(confirmPageOf(required, theirs.link));
    expect(setCookie(opened, COOKIE.sessionToken)).toBeUndefined();
    const response = await confirmLink(mine, theirs.link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${required.baseUrl}/email-verified`);
    expect(setCookie(response, COOKIE.sessionToken)).toBeUndefined();
    expect(await emailVerified(required, theirs.user.id)).toBe(true);

    const signedOut = await signUpWithMail(required, mailbox);
    await signedOut.client.post("/api/auth/sign-out");
    const after = await signedOut.client.get(signedOut.link);
    expect(setCookie(after, COOKIE.sessionToken)).toBeUndefined();
    expect(after.headers.get("location")).toBe(confirmPageOf(required, signedOut.link)); // signing out unbound it
    const confirmed = await confirmLink(signedOut.client, signedOut.link);
    expect(confirmed.headers.get("location")).toBe(`${required.baseUrl}/email-verified`);
    expect(setCookie(confirmed, COOKIE.sessionToken)).toBeUndefined();
    expect(await emailVerified(required, signedOut.user.id)).toBe(true);
  });

  it("does not start another session when the owner follows the link while signed in", async () => {
    const { client, user, link } = await signUpWithMail(server);
    expect(await count(server.database, "session", `"userId" = ?`, [user.id])).toBe(1);
    const response = await client.get(link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect(await count(server.database, "session", `"userId" = ?`, [user.id])).toBe(1);
    expect((await client.get("/api/auth/get-session")).body.user.emailVerified).toBe(true);
  });
});

describe("POST /send-verification-email, signed out", () => {
  it("gives the same answer for unknown, unverified and verified addresses, and mails only the unverified one", async () => {
    const unverified = await signUpWithMail(server);
    const verified = await signUpWithMail(server);
    expect((await confirmLink(new ApiClient(server.baseUrl), verified.link)).status).toBe(302);
    expect(await emailVerified(server, verified.user.id)).toBe(true);
    const unknown = uniqueEmail("nobody");
    const seenUnverified = mailCount(mailbox, unverified.email);
    const seenVerified = mailCount(mailbox, verified.email);

    const answers = [];
    for (const email of [unknown, verified.email, unverified.email]) {
      answers.push(await new ApiClient(server.baseUrl).post(SEND, { email }));
    }
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ status: true });
      expect(answer.text).toBe(answers[0].text);
      expect(answer.setCookies).toEqual([]);
    }
    const mail = await nextMail(mailbox, unverified.email, VERIFY, seenUnverified);
    const link = checkMail(mail, server.baseUrl, "1 hour");
    await expectNoNewMail(mailbox, verified.email, seenVerified);
    expect(mailbox.to(unknown)).toEqual([]);

    // The new link works like the sign-up one: opened elsewhere it asks, and confirmed it verifies.
    const elsewhere = new ApiClient(server.baseUrl);
    expect((await elsewhere.get(link)).headers.get("location")).toBe(confirmPageOf(server, link));
    expect(await emailVerified(server, unverified.user.id)).toBe(false);
    expect((await confirmLink(elsewhere, link)).headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect(await emailVerified(server, unverified.user.id)).toBe(true);
  });

  it("finds the account whatever the casing of the address", async () => {
    const { email } = await signUpWithMail(server);
    const seen = mailCount(mailbox, email, VERIFY);
    expect((await new ApiClient(server.baseUrl).post(SEND, { email: email.toUpperCase() })).body).toEqual({ status: true });
    await nextMail(mailbox, email, VERIFY, seen);
  });

  it("puts the callbackURL in the link, and the link redirects there", async () => {
    const { email, user } = await signUpWithMail(server);
    const seen = mailCount(mailbox, email, VERIFY);
    await new ApiClient(server.baseUrl).post(SEND, { email, callbackURL: "/welcome?from=mail" });
    const link = actionLink(await nextMail(mailbox, email, VERIFY, seen));
    expect(new URL(link).searchParams.get("callbackURL")).toBe("/welcome?from=mail");
    // Opened outside the account's own browser, the link's page carries the callbackURL on to the confirmation.
    const browser = new ApiClient(server.baseUrl);
    const opened = await browser.get(link);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toBe(confirmPageOf(server, link));
    expect(opened.headers.get("location")).toContain(`callbackURL=${encodeURIComponent("/welcome?from=mail")}`);
    expect(await emailVerified(server, user.id)).toBe(false);
    const response = await confirmLink(browser, link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${server.baseUrl}/welcome?from=mail`);
    expect(await emailVerified(server, user.id)).toBe(true);
  });

  it("refuses a callbackURL on another site with 403 and sends nothing", async () => {
    const { email } = await signUpWithMail(server);
    const seen = mailCount(mailbox, email);
    const response = await new ApiClient(server.baseUrl).post(SEND, { email, callbackURL: "https://evil.example/phish" });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: "INVALID_CALLBACKURL", message: "Invalid callbackURL" });
    await expectNoNewMail(mailbox, email, seen, 200);
  });
});

describe("POST /send-verification-email, signed in", () => {
  it("sends a fresh link to the user's own unverified address", async () => {
    const { client, email } = await signUpWithMail(server);
    const seen = mailCount(mailbox, email, VERIFY);
    const response = await client.post(SEND, { email });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true });
    checkMail(await nextMail(mailbox, email, VERIFY, seen), server.baseUrl, "1 hour");
  });

  it("answers 502 when the mail cannot be sent and withdraws only the unsent link", async () => {
    const { client, email, user } = await signUpWithMail(server);
    const links = () => count(server.database, "verification", `"identifier" LIKE 'email-verification:%' AND "value" LIKE ?`, [`%${user.id}%`]);
    const before = await links(); // the sign-up link, already delivered, keeps working
    await mailbox.refuse(email);
    let response;
    try {
      response = await client.post(SEND, { email });
    } finally {
      await mailbox.refuse(email, false);
    }
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ code: "FAILED_TO_SEND_EMAIL", message: "Failed to send email" });
    expect(await links()).toBe(before);
  });

  it("answers 400 EMAIL_MISMATCH for someone else's address", async () => {
    const { client } = await signUpWithMail(server);
    const other = await signUpWithMail(server);
    const seen = mailCount(mailbox, other.email);
    const response = await client.post(SEND, { email: other.email });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "EMAIL_MISMATCH", message: "Email mismatch" });
    await expectNoNewMail(mailbox, other.email, seen, 200);
  });

  it("answers 400 EMAIL_ALREADY_VERIFIED once the address is verified", async () => {
    const { client, email, link } = await signUpWithMail(server);
    await client.get(link);
    const seen = mailCount(mailbox, email);
    const response = await client.post(SEND, { email });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "EMAIL_ALREADY_VERIFIED", message: "Email already verified" });
    await expectNoNewMail(mailbox, email, seen, 200);
  });
});

describe("GET /verify-email", () => {
  it("answers JSON when there is no callbackURL", async () => {
    const { link, user, email } = await signUpWithMail(server);
    const bare = withParam(link, "callbackURL", null);
    // Outside the account's own browser the GET changes nothing, and says so in JSON (issue 37)...
    const opened = await new ApiClient(server.baseUrl).get(bare);
    expect(opened.status).toBe(403);
    expect(opened.headers.get("content-type")).toMatch(/^application\/json/);
    expect(opened.body).toEqual({ code: "LINK_NEEDS_CONFIRMATION", message: "Link needs confirmation" });
    expect(await emailVerified(server, user.id)).toBe(false);
    // ...and the confirmation answers the link's JSON.
    const response = await confirmLink(new ApiClient(server.baseUrl), bare);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.body.status).toBe(true);
    expect(response.body.user).toMatchObject({ id: user.id, email, emailVerified: true });
  });

  it("redirects with error=invalid_token for tampered and garbage tokens, and verifies nothing", async () => {
    const { link, user } = await signUpWithMail(server);
    const other = await signUpWithMail(server);
    const token = tokenOf(link);
    const forged = tamperPayload(token, (claims) => {
      claims.userId = other.user.id;
      claims.email = other.email;
    });
    for (const bad of [tamperSignature(token), forged, "garbage", `${token}x`, "", "a.b.c"]) {
      const response = await new ApiClient(server.baseUrl).get(withParam(withParam(link, "token", bad), "callbackURL", "/welcome"));
      expect(response.status, bad).toBe(302);
      expect(response.headers.get("location"), bad).toBe(`${server.baseUrl}/welcome?error=invalid_token`);
      expect(setCookie(response, COOKIE.sessionToken)).toBeUndefined();
    }
    expect(await emailVerified(server, user.id)).toBe(false);
    expect(await emailVerified(server, other.user.id)).toBe(false);
    // Confirming a bad token answers the same.
    for (const bad of [tamperSignature(token), forged, "garbage", ""]) {
      const response = await confirmLink(new ApiClient(server.baseUrl), withParam(withParam(link, "token", bad), "callbackURL", "/welcome"));
      expect(response.status, bad).toBe(302);
      expect(response.headers.get("location"), bad).toBe(`${server.baseUrl}/welcome?error=invalid_token`);
    }
    expect(await emailVerified(server, user.id)).toBe(false);
    expect(await emailVerified(server, other.user.id)).toBe(false);
    // The genuine link still works afterwards.
    expect((await confirmLink(new ApiClient(server.baseUrl), link)).headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect(await emailVerified(server, user.id)).toBe(true);
  });

  it("answers 401 INVALID_TOKEN as JSON for a bad token without callbackURL", async () => {
    const { link } = await signUpWithMail(server);
    const response = await new ApiClient(server.baseUrl).get(withParam(withParam(link, "token", tamperSignature(tokenOf(link))), "callbackURL", null));
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: "INVALID_TOKEN" });
    const missing = await new ApiClient(server.baseUrl).get("/api/auth/verify-email");
    expect(missing.status).toBe(401);
    expect(missing.body).toMatchObject({ code: "INVALID_TOKEN" });
  });

  // Issue 27: mail clients cut long links; a browser (Accept: text/html) opening what is left gets the page.
  const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

  it("sends a browser opening a link without callbackURL to /email-verified, with the outcome as the page's words", async () => {
    const { link, user, email } = await signUpWithMail(server);
    const token = tokenOf(link);
    const cut = new ApiClient(server.baseUrl);
    const truncated = await cut.get(withParam(withParam(link, "token", token.slice(0, 60)), "callbackURL", null), BROWSER);
    expect(truncated.status).toBe(302);
    expect(truncated.headers.get("location")).toBe(`${server.baseUrl}/email-verified?error=invalid_token`);
    const page = await cut.get("/email-verified?error=invalid_token", BROWSER);
    expect(page.status).toBe(200);
    expect(page.text).toContain("We could not confirm your email address");
    expect(page.text).toContain("copy all of it into the address bar");
    expect(page.text).toContain("<title>Error: Email confirmation · Latchkey</title>");
    const bare = await cut.get("/api/auth/verify-email", BROWSER);
    expect(bare.headers.get("location")).toBe(`${server.baseUrl}/email-verified?error=invalid_token`);
    expect(await emailVerified(server, user.id)).toBe(false);

    // The whole link, opened outside the account's own browser, goes to its page first (issue 37); confirmed
    // without a callbackURL, the browser lands on /email-verified.
    const browser = new ApiClient(server.baseUrl);
    const whole = await browser.get(withParam(link, "callbackURL", null), BROWSER);
    expect(whole.status).toBe(302);
    expect(whole.headers.get("location")).toBe(confirmPageOf(server, withParam(link, "callbackURL", null)));
    expect(await emailVerified(server, user.id)).toBe(false);
    const confirmed = await confirmLink(browser, withParam(link, "callbackURL", null), BROWSER);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect(await emailVerified(server, user.id)).toBe(true);
    const landed = await browser.get("/email-verified", BROWSER);
    expect(landed.text).toContain(`Your email address ${email} is verified.`);
  });

  it("keeps the JSON answers for a client asking for JSON (or anything)", async () => {
    const { link } = await signUpWithMail(server);
    for (const accept of ["application/json", "*/*", "application/json, text/html;q=0.5"]) {
      const bad = await new ApiClient(server.baseUrl).get(withParam(withParam(link, "token", "garbage"), "callbackURL", null), { accept });
      expect(bad.status, accept).toBe(401);
      expect(bad.body, accept).toMatchObject({ code: "INVALID_TOKEN" });
      const badConfirmed = await confirmLink(new ApiClient(server.baseUrl), withParam(withParam(link, "token", "garbage"), "callbackURL", null), { accept });
      expect(badConfirmed.status, accept).toBe(401);
      expect(badConfirmed.body, accept).toMatchObject({ code: "INVALID_TOKEN" });
      // The genuine link opened outside the account's own browser: JSON too, and nothing changes (issue 37).
      const opened = await new ApiClient(server.baseUrl).get(withParam(link, "callbackURL", null), { accept });
      expect(opened.status, accept).toBe(403);
      expect(opened.body, accept).toEqual({ code: "LINK_NEEDS_CONFIRMATION", message: "Link needs confirmation" });
    }
    const good = await confirmLink(new ApiClient(server.baseUrl), withParam(link, "callbackURL", null), { accept: "application/json" });
    expect(good.status).toBe(200);
    expect(good.body.status).toBe(true);
  });

  it("appends the error to a callbackURL that already has a query", async () => {
    const response = await new ApiClient(server.baseUrl).get(`/api/auth/verify-email?token=nope&callbackURL=${encodeURIComponent("/welcome?tab=2")}`);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${server.baseUrl}/welcome?tab=2&error=invalid_token`);
  });

  it("refuses a callbackURL on another site with 403", async () => {
    const { link, user } = await signUpWithMail(server);
    const response = await new ApiClient(server.baseUrl).get(withParam(link, "callbackURL", "https://evil.example/"));
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: "INVALID_CALLBACKURL", message: "Invalid callbackURL" });
    expect(await emailVerified(server, user.id)).toBe(false);
  });

  it("redirects with error=user_not_found once the address the link was sent for has changed", async () => {
    const { client, link, user } = await signUpWithMail(server);
    const newEmail = uniqueEmail("moved");
    expect((await client.post("/api/auth/change-email", { newEmail })).status).toBe(200);
    const response = await new ApiClient(server.baseUrl).get(link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${server.baseUrl}/email-verified?error=user_not_found`);
    expect(await emailVerified(server, user.id)).toBe(false);
    const json = await new ApiClient(server.baseUrl).get(withParam(link, "callbackURL", null));
    expect(json.status).toBe(401);
    expect(json.body).toMatchObject({ code: "USER_NOT_FOUND" });
  });

  it("redirects with error=user_not_found once the account is deleted", async () => {
    const { client, link } = await signUpWithMail(server);
    expect((await client.post("/api/auth/delete-user", { password: PASSWORD })).body).toEqual({ success: true, message: "User deleted" });
    const response = await new ApiClient(server.baseUrl).get(link);
    expect(response.headers.get("location")).toBe(`${server.baseUrl}/email-verified?error=user_not_found`);
  });

  it("redirects with error=unauthorized when followed while signed in as someone else, without using the link up", async () => {
    const { link, user } = await signUpWithMail(server);
    const someoneElse = await signUpWithMail(server);
    const response = await someoneElse.client.get(link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${server.baseUrl}/email-verified?error=unauthorized`);
    expect(await emailVerified(server, user.id)).toBe(false);
    expect((await someoneElse.client.get("/api/auth/get-session")).body.user.id).toBe(someoneElse.user.id);
    // Confirming it there is refused the same way.
    const confirmed = await confirmLink(someoneElse.client, link);
    expect(confirmed.headers.get("location")).toBe(`${server.baseUrl}/email-verified?error=unauthorized`);
    expect(await emailVerified(server, user.id)).toBe(false);
    // The owner can still use it.
    const owner = await confirmLink(new ApiClient(server.baseUrl), link);
    expect(owner.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect(await emailVerified(server, user.id)).toBe(true);
  });

  it("treats a second click after success as success, but a used token cannot verify an unverified address again", async () => {
    const { link, user } = await signUpWithMail(server);
    const first = await confirmLink(new ApiClient(server.baseUrl), link);
    expect(first.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    // The repeat (a mail scanner's GET, a second click) succeeds, but only the first use signs a browser in.
    const sessions = await count(server.database, "session", `"userId" = ?`, [user.id]);
    const secondBrowser = new ApiClient(server.baseUrl);
    const second = await secondBrowser.get(link);
    expect(second.status).toBe(302);
    expect(second.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect(setCookie(second, COOKIE.sessionToken)).toBeUndefined();
    expect((await secondBrowser.get("/api/auth/get-session")).body).toBeNull();
    expect(await count(server.database, "session", `"userId" = ?`, [user.id])).toBe(sessions);
    expect(await emailVerified(server, user.id)).toBe(true);
    const secondConfirmed = await confirmLink(secondBrowser, link);
    expect(secondConfirmed.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect(setCookie(secondConfirmed, COOKIE.sessionToken)).toBeUndefined();
    expect(await count(server.database, "session", `"userId" = ?`, [user.id])).toBe(sessions);

    // The address becomes unverified again: the used link must not verify it a second time, opened or confirmed.
    await query(server.database, `UPDATE "user" SET "emailVerified" = ? WHERE "id" = ?`, [0, user.id]);
    const reuse = await new ApiClient(server.baseUrl).get(link);
    expect(reuse.status).toBe(302);
    expect(reuse.headers.get("location")).toBe(`${server.baseUrl}/email-verified?error=invalid_token`);
    expect(setCookie(reuse, COOKIE.sessionToken)).toBeUndefined();
    const reconfirmed = await confirmLink(new ApiClient(server.baseUrl), link);
    expect(reconfirmed.status).toBe(302);
    expect(reconfirmed.headers.get("location")).toBe(`${server.baseUrl}/email-verified?error=invalid_token`);
    expect(setCookie(reconfirmed, COOKIE.sessionToken)).toBeUndefined();
    expect(await emailVerified(server, user.id)).toBe(false);
  });

  it("uses a token up when it verifies (the row is gone)", async () => {
    const { link, user } = await signUpWithMail(server);
    const before = await count(server.database, "verification", `"identifier" LIKE 'email-verification:%' AND "value" LIKE ?`, [`%${user.id}%`]);
    expect(before).toBe(1);
    // Opened outside the account's own browser it is not used (issue 37); confirmed, it is.
    await new ApiClient(server.baseUrl).get(link);
    expect(await count(server.database, "verification", `"identifier" LIKE 'email-verification:%' AND "value" LIKE ?`, [`%${user.id}%`])).toBe(1);
    expect((await confirmLink(new ApiClient(server.baseUrl), link)).status).toBe(302);
    expect(await count(server.database, "verification", `"identifier" LIKE 'email-verification:%' AND "value" LIKE ?`, [`%${user.id}%`])).toBe(0);
  });

  it("redirects with error=token_expired after AUTH_EMAIL_VERIFICATION_TTL", async () => {
    const { link, user, email } = await signUpWithMail(shortTtl);
    checkMail(mailbox.to(email)[0], shortTtl.baseUrl, "1 second");
    await sleep(1_200);
    const response = await new ApiClient(shortTtl.baseUrl).get(link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${shortTtl.baseUrl}/email-verified?error=token_expired`);
    expect(setCookie(response, COOKIE.sessionToken)).toBeUndefined();
    const json = await new ApiClient(shortTtl.baseUrl).get(withParam(link, "callbackURL", null));
    expect(json.status).toBe(401);
    expect(json.body).toMatchObject({ code: "TOKEN_EXPIRED" });
    expect(await emailVerified(shortTtl, user.id)).toBe(false);
  });

  it("verifies without signing the browser in when AUTH_AUTO_SIGN_IN_AFTER_VERIFICATION=off", async () => {
    const { link, user, email } = await signUpWithMail(noAutoSignIn);
    const browser = new ApiClient(noAutoSignIn.baseUrl);
    const response = await confirmLink(browser, link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${noAutoSignIn.baseUrl}/email-verified`);
    expect(setCookie(response, COOKIE.sessionToken)).toBeUndefined();
    expect((await browser.get("/api/auth/get-session")).body).toBeNull();
    expect(await emailVerified(noAutoSignIn, user.id)).toBe(true);
    // Another browser proved the inbox of a never-proven account: what was set up before ended (ADR 028).
    expect(await count(noAutoSignIn.database, "session", `"userId" = ?`, [user.id])).toBe(0);
    expect((await new ApiClient(noAutoSignIn.baseUrl).post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(401);
  });
});

describe("AUTH_EMAIL_VERIFICATION=required", () => {
  it("signs up without a session, refuses sign-in with 403 and a fresh mail, and signs in after verification", async () => {
    const client = new ApiClient(required.baseUrl);
    const email = uniqueEmail("strict");
    const signUpResponse = await client.post("/api/auth/sign-up/email", { name: "Strict", email, password: PASSWORD });
    expect(signUpResponse.status).toBe(200);
    expect(signUpResponse.body.token).toBeNull();
    expect(signUpResponse.body.user).toMatchObject({ email, emailVerified: false });
    expect(setCookie(signUpResponse, COOKIE.sessionToken)).toBeUndefined();
    expect(client.cookies.has(COOKIE.sessionToken)).toBe(false);
    const firstLink = checkMail(await mailbox.waitFor(email, VERIFY), required.baseUrl, "1 hour");

    const seen = mailCount(mailbox, email, VERIFY);
    const refused = await client.post("/api/auth/sign-in/email", { email, password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });
    expect(setCookie(refused, COOKIE.sessionToken)).toBeUndefined();
    const fresh = checkMail(await nextMail(mailbox, email, VERIFY, seen), required.baseUrl, "1 hour");
    expect(fresh).not.toBe(firstLink);

    // A wrong password reveals nothing and sends nothing.
    const wrong = await client.post("/api/auth/sign-in/email", { email, password: `${PASSWORD}!` });
    expect(wrong.status).toBe(401);
    await expectNoNewMail(mailbox, email, seen + 1, 300);

    // Followed in the browser that signed up (and proved the password): nothing set up there ends (ADR 028).
    const verified = await client.get(fresh);
    expect(verified.status).toBe(302);
    expect(verified.headers.get("location")).toBe(`${required.baseUrl}/email-verified`);
    const signIn = await client.post("/api/auth/sign-in/email", { email, password: PASSWORD });
    expect(signIn.status).toBe(200);
    expect(signIn.body.token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(signIn.body.user.emailVerified).toBe(true);
  });

  it("binds the link mailed by a username sign-in to the browser, as the e-mail sign-in does, so following it there signs in", async () => {
    const email = uniqueEmail("strict-username");
    const username = `strict_${Date.now().toString(36)}`;
    const signedUp = await new ApiClient(required.baseUrl).post("/api/auth/sign-up/email", { name: "Strict Username", email, password: PASSWORD, username });
    expect(signedUp.status).toBe(200);
    await mailbox.waitFor(email, VERIFY);

    const client = new ApiClient(required.baseUrl); // not the browser that signed up
    const seen = mailCount(mailbox, email, VERIFY);
    const refused = await client.post("/api/auth/sign-in/username", { username, password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: "EMAIL_NOT_VERIFIED", message: "Email not verified" });
    expect(setCookie(refused, "latchkey.verification_browser")).toBeDefined();
    const link = checkMail(await nextMail(mailbox, email, VERIFY, seen), required.baseUrl, "1 hour");

    const followed = await client.get(link);
    expect(followed.status).toBe(302);
    expect(setCookie(followed, COOKIE.sessionToken)).toBeDefined();
    expect((await client.get("/api/auth/get-session")).body.user).toMatchObject({ email, emailVerified: true });
  });

  it("a link's sign-in of a user with two-factor on ends in the second step, not a session (ADR 019, 027)", async () => {
    const client = new ApiClient(required.baseUrl);
    const email = uniqueEmail("strict-2fa");
    expect((await client.post("/api/auth/sign-up/email", { name: "Strict Two Factor", email, password: PASSWORD })).status).toBe(200);
    expect((await client.get(await mailbox.waitFor(email, VERIFY).then(actionLink))).status).toBe(302); // signs in
    const { totpURI, used } = await enableTwoFactor(client);
    await chooseEmailedCode(client);
    // The address becomes unverified again (as a change of address leaves it), and the owner signs out.
    await query(required.database, `UPDATE "user" SET "emailVerified" = ? WHERE "email" = ?`, [required.database.kind === "sqlite" ? 0 : false, email]);
    await client.post("/api/auth/sign-out", {});

    // The password is right: 403, a fresh link, bound to this browser.
    const seen = mailCount(mailbox, email, VERIFY);
    expect((await client.post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(403);
    const link = checkMail(await nextMail(mailbox, email, VERIFY, seen), required.baseUrl, "1 hour");

    const followed = await client.get(link);
    expect(followed.status).toBe(302);
    expect(followed.headers.get("location")).toBe(`${required.baseUrl}/two-factor?redirectTo=%2Femail-verified`);
    expect(setCookie(followed, COOKIE.sessionToken)).toBeUndefined();
    expect(setCookie(followed, "latchkey.two_factor")).toBeDefined();
    expect(await emailVerified(required, (await query<{ id: string }>(required.database, `SELECT "id" FROM "user" WHERE "email" = ?`, [email]))[0].id)).toBe(true);
    expect((await client.get("/api/auth/get-session")).body).toBeNull();
    // The link proved the inbox: a code mailed to the same inbox is not a second factor here, though chosen.
    expect((await client.post("/api/auth/two-factor/send-otp", {})).body.code).toBe("OTP_NOT_ENABLED");
    const done = await client.post("/api/auth/two-factor/verify-totp", { code: freshCode(totpURI, used) });
    expect(done.status, done.text).toBe(200);
    expect((await client.get("/api/auth/get-session")).body.user.email).toBe(email);
  });

  it("answers the link's JSON with twoFactorRedirect when the sign-in waits for its second step", async () => {
    const client = new ApiClient(required.baseUrl);
    const email = uniqueEmail("strict-2fa-json");
    expect((await client.post("/api/auth/sign-up/email", { name: "Strict Json", email, password: PASSWORD })).status).toBe(200);
    expect((await client.get(await mailbox.waitFor(email, VERIFY).then(actionLink))).status).toBe(302);
    await enableTwoFactor(client);
    await query(required.database, `UPDATE "user" SET "emailVerified" = ? WHERE "email" = ?`, [required.database.kind === "sqlite" ? 0 : false, email]);
    await client.post("/api/auth/sign-out", {});
    const seen = mailCount(mailbox, email, VERIFY);
    expect((await client.post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(403);
    const link = checkMail(await nextMail(mailbox, email, VERIFY, seen), required.baseUrl, "1 hour");

    const answer = await client.get(withParam(link, "callbackURL", null));
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ status: true, user: { email, emailVerified: true }, twoFactorRedirect: true, twoFactorMethods: ["totp"] });
    expect(setCookie(answer, COOKIE.sessionToken)).toBeUndefined();
    expect((await client.get("/api/auth/get-session")).body).toBeNull();
  });

  it("fails sign-up with 502 when the mail cannot be sent, leaves no user behind, and works once mail flows again", async () => {
    const email = uniqueEmail("undeliverable");
    await mailbox.refuse(email);
    let failed;
    try {
      failed = await new ApiClient(required.baseUrl).post("/api/auth/sign-up/email", { name: "No Mail", email, password: PASSWORD });
    } finally {
      await mailbox.refuse(email, false);
    }
    expect(failed.status).toBe(502);
    expect(failed.body).toEqual({ code: "FAILED_TO_SEND_EMAIL", message: "Failed to send email" });
    expect(setCookie(failed, COOKIE.sessionToken)).toBeUndefined();
    expect(await count(required.database, "user", `"email" = ?`, [email])).toBe(0);
    expect(await count(required.database, "account", `"userId" NOT IN (SELECT "id" FROM "user")`)).toBe(0);
    expect(await count(required.database, "verification", `"value" LIKE ?`, [`%${email}%`])).toBe(0); // no orphaned link
    expect(required.output()).toMatch(/could not send/);

    const retry = await new ApiClient(required.baseUrl).post("/api/auth/sign-up/email", { name: "No Mail", email, password: PASSWORD });
    expect(retry.status).toBe(200);
    expect(retry.body.token).toBeNull();
    await mailbox.waitFor(email, VERIFY);
  });
});

describe("AUTH_EMAIL_VERIFICATION=off", () => {
  it("sends nothing on sign-up and answers 400 \"Verification email isn't enabled\"", async () => {
    const client = new ApiClient(off.baseUrl);
    const { email, response } = await signUp(client);
    expect(response.body.token).toMatch(/^[A-Za-z0-9]{32}$/); // signed in, unverified
    for (const caller of [client, new ApiClient(off.baseUrl)]) {
      const answer = await caller.post(SEND, { email });
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({ code: "VERIFICATION_EMAIL_ISNT_ENABLED", message: "Verification email isn't enabled" });
    }
    await expectNoNewMail(mailbox, email, 0);
    const signIn = await new ApiClient(off.baseUrl).post("/api/auth/sign-in/email", { email, password: PASSWORD });
    expect(signIn.status).toBe(200);
  });
});

describe("without SMTP_URL", () => {
  it("writes each message, with its link, to the server log, so the flow can be completed from there", async () => {
    const { email, user } = await signUp(new ApiClient(logOnly.baseUrl));
    let link: string | undefined;
    for (let i = 0; i < 100 && !link; i++) {
      const logged = logOnly.output().split(`mail to ${email}:`)[1];
      link = logged?.match(/https?:\/\/\S+\/api\/auth\/verify-email\?\S+/)?.[0];
      if (!link) await sleep(50);
    }
    expect(link, logOnly.output()).toBeDefined();
    expect(link!.startsWith(`${logOnly.baseUrl}/api/auth/verify-email?token=`)).toBe(true);

    // A localhost BASE_URL without SMTP: the development outbox page lists the message and its link.
    const outbox = await new ApiClient(logOnly.baseUrl).get("/dev/outbox");
    expect(outbox.status).toBe(200);
    expect(outbox.text).toContain(email);
    expect(outbox.text).toContain("Verify your email address");
    expect(outbox.text).toContain(tokenOf(link!));

    // Opened in another browser it asks first (issue 37), and the confirmation verifies.
    const browser = new ApiClient(logOnly.baseUrl);
    expect((await browser.get(link!)).headers.get("location")).toBe(confirmPageOf(logOnly, link!));
    expect((await confirmLink(browser, link!)).headers.get("location")).toBe(`${logOnly.baseUrl}/email-verified`);
    expect(await emailVerified(logOnly, user.id)).toBe(true);
  });

  it("shows the outbox only to the machine itself: never through a proxy or tunnel, whatever it claims", async () => {
    const behindProxy = await startServer({ env: { TRUST_PROXY: "1" } });
    try {
      const direct = new ApiClient(behindProxy.baseUrl);
      expect((await direct.get("/dev/outbox")).status).toBe(200);
      // A reverse proxy or tunnel on this machine connects from 127.0.0.1 too: any forwarding header closes it,
      // including a spoofed "I am loopback".
      for (const [name, value] of [
        ["x-forwarded-for", "192.0.2.44"],
        ["x-forwarded-for", "127.0.0.1"],
        ["forwarded", "for=127.0.0.1"],
        ["x-forwarded-host", "localhost"],
        ["x-real-ip", "127.0.0.1"],
        ["via", "1.1 tunnel"],
      ]) {
        expect((await direct.get("/dev/outbox", { [name]: value })).status, `${name}: ${value}`).toBe(404);
      }
      // A tunnel that forwards the public host name (fetch cannot set Host, so node:http does).
      const { request } = await import("node:http");
      const url = new URL("/dev/outbox", behindProxy.baseUrl);
      const tunnelled = await new Promise<number>((resolve, reject) => {
        request({ host: "127.0.0.1", port: url.port, path: url.pathname, headers: { host: "abc.tunnel.example" } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
          .on("error", reject)
          .end();
      });
      expect(tunnelled).toBe(404);
    } finally {
      await behindProxy.stop();
    }
  });

  it("has no outbox page when mail goes out by SMTP", async () => {
    expect((await new ApiClient(server.baseUrl).get("/dev/outbox")).status).toBe(404);
  });
});
