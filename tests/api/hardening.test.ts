// The smaller holes of the security review (issue 6, "Low" and "Hygiene"): each test here failed before its fix.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { COOKIE, expectLifetime, expectMaxAgeEndingAt, setCookie, timed } from "../support/cookies";
import { expectNoNewMail, mailCount, nextMail } from "../support/mail";
import { actionLink, type Mailbox } from "../support/mailbox";
import { sharedMailbox, sharedServer, startServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

const VERIFY = /Verify your email address/;
const RESET = /Reset your password/;
const ATTEMPT = /Someone tried to create an account/;

let mailbox: Mailbox;
let server: TestServer; // defaults, sessions due for extension after 1 s
let required: TestServer; // AUTH_EMAIL_VERIFICATION=required
let proxied: TestServer; // rate limits on, client address from X-Forwarded-For
let capped: TestServer; // two mails per recipient per hour

beforeAll(async () => {
  mailbox = await sharedMailbox();
  const smtp = { SMTP_URL: mailbox.url };
  [server, required, proxied, capped] = await Promise.all([
    sharedServer({ env: { ...smtp, AUTH_SESSION_UPDATE_AGE: "1" } }),
    sharedServer({ env: { ...smtp, AUTH_EMAIL_VERIFICATION: "required" } }),
    // Their own: rate limits count every request from 127.0.0.1 alike, and a test reads the log.
    startServer({ env: { ...smtp, AUTH_RATE_LIMIT: "on", TRUST_PROXY: "true" } }),
    startServer({ env: { ...smtp, AUTH_MAIL_PER_RECIPIENT_PER_HOUR: "2" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server, required, proxied, capped].map((s) => s?.stop()));
  await mailbox?.stop();
});

describe("sign-up with AUTH_EMAIL_VERIFICATION=required does not reveal registered addresses", () => {
  it("answers a registered address exactly as a new one, creates nothing, and mails the owner instead", async () => {
    const owner = new ApiClient(required.baseUrl);
    const email = uniqueEmail("taken");
    const first = await owner.post("/api/auth/sign-up/email", { name: "Owner", email, password: PASSWORD });
    expect(first.status).toBe(200);
    await mailbox.waitFor(email, VERIFY);

    const fresh = await new ApiClient(required.baseUrl).post("/api/auth/sign-up/email", { name: "Someone", email: uniqueEmail("new"), password: PASSWORD });
    const again = await new ApiClient(required.baseUrl).post("/api/auth/sign-up/email", { name: "Someone", email: email.toUpperCase(), password: "another password 123" });
    expect(again.status).toBe(fresh.status);
    expect(Object.keys(again.body).sort()).toEqual(Object.keys(fresh.body).sort());
    expect(Object.keys(again.body.user).sort()).toEqual(Object.keys(fresh.body.user).sort());
    expect(again.body).toMatchObject({ token: null, user: { email, name: "Someone", emailVerified: false } });
    expect(again.body.user.id).not.toBe(first.body.user.id);
    // The same cookies are set (none of them a session).
    const names = (response: { setCookies: string[] }) => response.setCookies.map((line) => line.split("=")[0]).sort();
    expect(names(again)).toEqual(names(fresh));
    expect(setCookie(again, COOKIE.sessionToken)).toBeUndefined();

    expect(await count(required.database, "user", `"email" = ?`, [email])).toBe(1);
    const notice = await mailbox.waitFor(email, ATTEMPT);
    expect(actionLink(notice)).toBe(`${required.baseUrl}/sign-in?email=${encodeURIComponent(email)}`);
    // The owner's password still works; the stranger's does not.
    await query(required.database, `UPDATE "user" SET "emailVerified" = ? WHERE "email" = ?`, [1, email]);
    expect((await new ApiClient(required.baseUrl).post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    expect((await new ApiClient(required.baseUrl).post("/api/auth/sign-in/email", { email, password: "another password 123" })).status).toBe(401);
  });

  it("still answers 422 USER_ALREADY_EXISTS when verification is not required (a new account would be signed in at once)", async () => {
    const { email } = await signUp(new ApiClient(server.baseUrl));
    const again = await new ApiClient(server.baseUrl).post("/api/auth/sign-up/email", { name: "X", email, password: PASSWORD });
    expect(again.status).toBe(422);
    expect(again.body).toEqual({ code: "USER_ALREADY_EXISTS", message: "User already exists" });
  });
});

describe("\"don't remember me\" is kept on the session, not in a cookie the browser may drop", () => {
  it("does not turn a one-day session into a renewable seven-day one when the dont_remember cookie is dropped", async () => {
    const { email } = await signUp(new ApiClient(server.baseUrl));
    const client = new ApiClient(server.baseUrl);
    const signIn = await client.post("/api/auth/sign-in/email", { email, password: PASSWORD, rememberMe: false });
    expect(signIn.status).toBe(200);
    const before = (await query<{ expiresAt: unknown }>(server.database, `SELECT "expiresAt" FROM "session" WHERE "token" = ?`, [signIn.body.token]))[0];
    client.cookies.delete(COOKIE.dontRemember);
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // past AUTH_SESSION_UPDATE_AGE
    const read = await client.get("/api/auth/get-session");
    expect(read.body.session.token).toBe(signIn.body.token);
    const lifetime = new Date(read.body.session.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeLessThanOrEqual(24 * 60 * 60 * 1000);
    const after = (await query<{ expiresAt: unknown }>(server.database, `SELECT "expiresAt" FROM "session" WHERE "token" = ?`, [signIn.body.token]))[0];
    expect(String(after.expiresAt)).toBe(String(before.expiresAt));
    // No lasting cookie either.
    const cookie = setCookie(read, COOKIE.sessionToken);
    if (cookie) expect(cookie.attributes).not.toHaveProperty("max-age");
  });

  it("still extends a remembered session read after the update age", async () => {
    const { email } = await signUp(new ApiClient(server.baseUrl));
    const client = new ApiClient(server.baseUrl);
    const signIn = await client.post("/api/auth/sign-in/email", { email, password: PASSWORD });
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const { response: read, ...span } = await timed(() => client.get("/api/auth/get-session"));
    expect(read.body.session.token).toBe(signIn.body.token);
    // Extended by this read to the full seven days, the cookie ending with the session: compared with what the
    // server computed from its own clock, not with 604800, which a slow extension misses by a second.
    const expiresAt = new Date(read.body.session.expiresAt).getTime();
    expectLifetime(expiresAt, 604_800, span);
    expectMaxAgeEndingAt(setCookie(read, COOKIE.sessionToken), expiresAt, span);
  });
});

describe("signing in again ends the browser's earlier session", () => {
  it("deletes the session the browser held before, whoever signs in", async () => {
    const first = await signUp(new ApiClient(server.baseUrl));
    const second = await signUp(new ApiClient(server.baseUrl));
    const browser = new ApiClient(server.baseUrl);
    const a = await browser.post("/api/auth/sign-in/email", { email: first.email, password: PASSWORD });
    const oldCookie = browser.cookies.get(COOKIE.sessionToken)!;
    const b = await browser.post("/api/auth/sign-in/email", { email: second.email, password: PASSWORD });
    expect(b.status).toBe(200);
    expect(await count(server.database, "session", `"token" = ?`, [a.body.token])).toBe(0);
    // The earlier cookie, replayed, is worthless.
    const replay = new ApiClient(server.baseUrl);
    replay.cookies.set(COOKIE.sessionToken, oldCookie);
    expect((await replay.get("/api/auth/get-session")).body).toBeNull();
    expect((await browser.get("/api/auth/get-session")).body.user.email).toBe(second.email);
  });
});

describe("an e-mail change ends every link mailed before it", () => {
  it("makes a reset link sent to the old address useless", async () => {
    const client = new ApiClient(server.baseUrl);
    const { email } = await signUp(client);
    const seen = mailCount(mailbox, email, RESET);
    await new ApiClient(server.baseUrl).post("/api/auth/request-password-reset", { email });
    const link = actionLink(await nextMail(mailbox, email, RESET, seen));
    const token = new URL(link).pathname.split("/").pop()!;

    const changed = await client.post("/api/auth/change-email", { newEmail: uniqueEmail("moved") });
    expect(changed.status).toBe(200);
    const reset = await new ApiClient(server.baseUrl).post("/api/auth/reset-password", { token, newPassword: "taken over 123" });
    expect(reset.status).toBe(400);
    expect(reset.body).toMatchObject({ code: "INVALID_TOKEN" });
  });
});

describe("profile images are only https: URLs (http: on the local machine)", () => {
  const HOSTILE = ["javascript:alert(document.cookie)", "data:image/svg+xml;base64,PHN2Zz4=", "http://images.example.com/me.png", "file:///etc/passwd", "https://user:pass@images.example.com/a.png", "not a url"];

  it.each(HOSTILE)("refuses %s on sign-up and update-user with 400 and stores nothing", async (image) => {
    const email = uniqueEmail("image");
    const signUpResponse = await new ApiClient(server.baseUrl).post("/api/auth/sign-up/email", { name: "Img", email, password: PASSWORD, image });
    expect(signUpResponse.status).toBe(400);
    expect(signUpResponse.body).toMatchObject({ code: "VALIDATION_ERROR" });
    expect(signUpResponse.body.message).toContain("[body.image]");
    expect(await count(server.database, "user", `"email" = ?`, [email])).toBe(0);

    const client = new ApiClient(server.baseUrl);
    const { user } = await signUp(client);
    const update = await client.post("/api/auth/update-user", { image });
    expect(update.status).toBe(400);
    const rows = await query<{ image: string | null }>(server.database, `SELECT "image" FROM "user" WHERE "id" = ?`, [user.id]);
    expect(rows[0].image).toBeNull();
  });

  it("refuses a javascript: image from the account page's form too", async () => {
    const client = new ApiClient(server.baseUrl);
    const { user } = await signUp(client);
    const form = new URLSearchParams({ intent: "update-profile", name: "Img", image: "javascript:alert(1)" });
    const response = await client.request("POST", "/account?index", {
      rawBody: form.toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(400);
    const rows = await query<{ image: string | null; name: string }>(server.database, `SELECT "image", "name" FROM "user" WHERE "id" = ?`, [user.id]);
    expect(rows[0]).toEqual({ image: null, name: "Test User" });
  });

  it.each(["https://images.example.com/me.png", "http://localhost:3000/me.png", ""])("accepts %j", async (image) => {
    const client = new ApiClient(server.baseUrl);
    await signUp(client);
    const response = await client.post("/api/auth/update-user", { image });
    expect(response.status).toBe(200);
  });
});

describe("HEAD on an e-mailed link", () => {
  it("does not use up a verification link", async () => {
    const client = new ApiClient(server.baseUrl);
    const { email, user } = await signUp(client);
    const link = actionLink(await mailbox.waitFor(email, VERIFY));
    const head = await new ApiClient(server.baseUrl).request("HEAD", link);
    expect(head.status).toBe(200);
    const rows = await query<{ emailVerified: unknown }>(server.database, `SELECT "emailVerified" FROM "user" WHERE "id" = ?`, [user.id]);
    expect(rows[0].emailVerified === true || rows[0].emailVerified === 1).toBe(false);
    expect(await count(server.database, "verification", `"identifier" LIKE 'email-verification:%' AND "value" LIKE ?`, [`%${user.id}%`])).toBe(1);
    const follow = await client.get(link);
    expect(follow.status).toBe(302);
    expect(follow.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
  });
});

describe("rate limits count IPv6 clients per /64", () => {
  it("limits a client that rotates through the addresses of its /64", async () => {
    const email = uniqueEmail("v6");
    const statuses: number[] = [];
    for (const suffix of ["1", "2", "abcd", "ffff:1"]) {
      const response = await new ApiClient(proxied.baseUrl).post("/api/auth/sign-in/email", { email, password: "wrong password" }, { "x-forwarded-for": `2001:db8:1:2::${suffix}` });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    // Another /64 is another client.
    const other = await new ApiClient(proxied.baseUrl).post("/api/auth/sign-in/email", { email, password: "wrong password" }, { "x-forwarded-for": "2001:db8:1:3::1" });
    expect(other.status).toBe(401);
  });
});

describe("mail to one recipient is capped", () => {
  it("sends at most AUTH_MAIL_PER_RECIPIENT_PER_HOUR messages to an address, whoever asks", async () => {
    const { email } = await signUp(new ApiClient(capped.baseUrl));
    await mailbox.waitFor(email, VERIFY); // the sign-up's own message is the first of the two
    for (let i = 0; i < 3; i += 1) {
      const response = await new ApiClient(capped.baseUrl).post("/api/auth/request-password-reset", { email });
      expect(response.status).toBe(200); // the answer never says whether a mail went out
    }
    await mailbox.waitFor(email, RESET);
    await expectNoNewMail(mailbox, email, 2, 800);
    expect(capped.output()).toContain("messages this hour already");
  });
});
