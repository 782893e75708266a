// Security events (issue 29, docs/decisions/048-security-events.md): every event type produced by its flow
// through the API, nothing recorded for a change that failed, details that never hold a secret (read from the
// stored rows), the new-device logic and its mail, the owner's list with its cursor, "This wasn't me", the
// JSON log line, and the events going with a deleted account.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, eventually, PASSWORD, signUp } from "../support/client";
import { startIdentityProvider, type TestIdentityProvider } from "../support/identity-provider";
import { actionLink, Mailbox } from "../support/mailbox";
import { startServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";
import { enableTwoFactor, freshCode } from "../support/two-factor";
import { SoftAuthenticator } from "../support/webauthn";

const DEVICE = "latchkey.device";
const CHROME_ON_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";

let idp: TestIdentityProvider;
let mailbox: Mailbox;
let server: TestServer;
let claims: Record<string, unknown> = {};

beforeAll(async () => {
  idp = await startIdentityProvider(() => claims);
  mailbox = await new Mailbox().start();
  server = await startServer({
    env: {
      SMTP_URL: mailbox.url,
      AUTH_EMAIL_VERIFICATION: "optional",
      AUTH_MAIL_PER_RECIPIENT_PER_HOUR: "50",
      AUTH_EVENT_LOG: "stdout",
      ...idp.env,
    },
  });
});
afterAll(async () => {
  await server?.stop();
  await mailbox?.stop();
  await idp?.stop();
});

interface StoredEvent {
  id: string;
  type: string;
  ipAddress: string | null;
  userAgent: string | null;
  device: string | null;
  sessionId: string | null;
  details: Record<string, unknown>;
}

/** The account's stored events, oldest first. */
async function storedEvents(userId: string): Promise<StoredEvent[]> {
  const rows = await query<StoredEvent & { details: string }>(server.database, `SELECT * FROM "securityEvent" WHERE "userId" = ? ORDER BY "createdAt", "id"`, [userId]);
  return rows.map((row) => ({ ...row, details: JSON.parse(row.details) }));
}
const typesOf = async (userId: string) => (await storedEvents(userId)).map((event) => event.type);
const lastOf = async (userId: string, type: string) => (await storedEvents(userId)).filter((event) => event.type === type).at(-1);

/** A browser that names itself with a User-Agent, as the device a person reads about. */
class Browser extends ApiClient {
  constructor(readonly userAgent: string) {
    super(server.baseUrl);
  }
  override request<T = any>(method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) {
    return super.request<T>(method, path, { ...options, headers: { "user-agent": this.userAgent, ...options.headers } });
  }
}
const browser = (userAgent = CHROME_ON_LINUX) => new Browser(userAgent);
const signIn = (client: ApiClient, email: string, password = PASSWORD) => client.post("/api/auth/sign-in/email", { email, password });
const mailsTo = (email: string, subject: RegExp) => mailbox.messages.filter((m) => m.to.includes(email) && subject.test(m.subject));

describe("sign-ins and new devices", () => {
  it("sign-up records a sign-in from the account's first device; signing in there again is not new and mails nothing", async () => {
    const laptop = browser();
    const { email, user } = await signUp(laptop);
    const [signUpEvent] = await storedEvents(user.id);
    expect(signUpEvent).toMatchObject({ type: "sign_in", device: "Chrome on Linux", userAgent: CHROME_ON_LINUX, details: { method: "password", twoFactor: false, newDevice: false, signUp: true } });
    expect(signUpEvent.sessionId).toBeTruthy();

    await laptop.post("/api/auth/sign-out");
    expect((await signIn(laptop, email)).status).toBe(200);
    const again = await lastOf(user.id, "sign_in");
    expect(again?.details).toEqual({ method: "password", twoFactor: false, newDevice: false });
    expect(await typesOf(user.id)).toEqual(["sign_in", "sign_out", "sign_in"]);
    // The verification mail arrives; no new-device mail comes with it.
    await mailbox.waitFor(email, /Verify/);
    expect(mailsTo(email, /New sign-in/)).toHaveLength(0);
  });

  it("a second browser is a new device (marked, and mailed once within the hour); so is one whose cookie was cleared", async () => {
    const { email, user } = await signUp(browser());
    const phone = browser("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1");
    expect((await signIn(phone, email)).status).toBe(200);
    expect((await lastOf(user.id, "sign_in"))?.details.newDevice).toBe(true);
    const mail = await mailbox.waitFor(email, /New sign-in/);
    expect(mail.subject).toBe("New sign-in to your account · Latchkey");
    expect(mail.text).toContain("with a password from a new device (Safari on iOS, IP address 127.0.0.1)");
    expect(mail.text).toMatch(/on \d{1,2} \w+ \d{4} at \d{2}:\d{2} UTC/);
    expect(mail.text).toContain("This wasn't me");
    expect(mail.links).toContain(`${server.baseUrl}/account/activity`);

    // The same browser again: known.
    expect((await signIn(phone, email)).status).toBe(200);
    expect((await lastOf(user.id, "sign_in"))?.details.newDevice).toBe(false);

    // Its cookie cleared: new again in the activity list; the mail would say what the first said (the same
    // device in words, the same address), so within the hour it is not sent again (ADR 074).
    phone.cookies.delete(DEVICE);
    expect((await signIn(phone, email)).status).toBe(200);
    expect((await lastOf(user.id, "sign_in"))?.details.newDevice).toBe(true);
    // Another kind of browser is another mail.
    const tablet = browser("Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0");
    expect((await signIn(tablet, email)).status).toBe(200);
    await expect.poll(() => mailsTo(email, /New sign-in/).length, { timeout: 10_000 }).toBe(2);
    expect(mailsTo(email, /New sign-in/).map((mail) => mail.text.includes("Firefox on Linux"))).toEqual([false, true]);
  });

  it("a client that keeps no cookies is a new device at every sign-in, and mailed once an hour", async () => {
    const { email, user } = await signUp(browser());
    for (let i = 0; i < 3; i++) {
      const forgetful = browser("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1");
      expect((await signIn(forgetful, email)).status).toBe(200);
    }
    expect((await storedEvents(user.id)).filter((e) => e.type === "sign_in" && e.details.newDevice === true)).toHaveLength(3);
    await mailbox.waitFor(email, /New sign-in/);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(mailsTo(email, /New sign-in/)).toHaveLength(1);
  });

  it("a flood of sign-ins from one new device is one mail an hour, whatever the mail cap", async () => {
    const { email, user } = await signUp(browser());
    const other = browser();
    // Same device id each time: the first sign-in is new, the rest known; the key collapses repeated news too.
    for (let i = 0; i < 3; i++) expect((await signIn(other, email)).status).toBe(200);
    expect((await storedEvents(user.id)).filter((e) => e.type === "sign_in" && e.details.newDevice === true)).toHaveLength(1);
    await mailbox.waitFor(email, /New sign-in/);
    expect(mailsTo(email, /New sign-in/)).toHaveLength(1);
  });

  it("a wrong password for an existing account is recorded for the owner, and the caller sees exactly what an unknown address gets", async () => {
    const { email, user } = await signUp(browser());
    const stranger = browser();
    const known = await signIn(stranger, email, "not the password");
    const unknown = await signIn(browser(), `nobody-${Date.now()}@example.com`, "not the password");
    expect(known.status).toBe(401);
    expect({ status: known.status, body: known.body }).toEqual({ status: unknown.status, body: unknown.body });
    expect(known.headers.get("set-cookie")).toBe(unknown.headers.get("set-cookie"));
    const failed = await eventually(() => lastOf(user.id, "sign_in_failed"), Boolean);
    expect(failed).toMatchObject({ type: "sign_in_failed", ipAddress: "127.0.0.1", device: "Chrome on Linux", details: { method: "password" } });
    // Nothing else changed: no session, no device marked.
    expect(await count(server.database, "knownDevice", `"userId" = ?`, [user.id])).toBe(1);
  });

  it("with two-factor on, the sign-in is recorded when the second step succeeds, and a wrong code is a failed sign-in", async () => {
    const owner = browser();
    const { email, user } = await signUp(owner);
    const { totpURI, used } = await enableTwoFactor(owner);
    const laptop = browser();
    expect((await signIn(laptop, email)).body.twoFactorRedirect).toBe(true);
    const before = (await storedEvents(user.id)).filter((e) => e.type === "sign_in").length;
    expect((await laptop.post("/api/auth/two-factor/verify-totp", { code: "000000" })).status).toBe(401);
    await eventually(() => lastOf(user.id, "sign_in_failed"), Boolean);
    expect((await lastOf(user.id, "sign_in_failed"))?.details).toEqual({ method: "two_factor" });
    expect((await storedEvents(user.id)).filter((e) => e.type === "sign_in")).toHaveLength(before);
    expect((await laptop.post("/api/auth/two-factor/verify-totp", { code: freshCode(totpURI, used) })).status).toBe(200);
    expect((await lastOf(user.id, "sign_in"))?.details).toEqual({ method: "password", twoFactor: true, newDevice: true });
  });
});

describe("changes, each recorded by its flow (and no change for one that failed)", () => {
  it("password change, e-mail change, two-factor, backup codes, passkeys, sessions, sign-out", async () => {
    const client = browser();
    const { email, user } = await signUp(client);

    // A refused change records no change; its wrong password is a failed sign-in (issue 39 §1), after the answer.
    expect((await client.post("/api/auth/change-password", { currentPassword: "wrong password!", newPassword: "a brand new passphrase" })).status).toBe(400);
    await eventually(() => typesOf(user.id), (types) => types.length === 2);
    expect(await typesOf(user.id)).toEqual(["sign_in", "sign_in_failed"]);
    expect(await lastOf(user.id, "sign_in_failed")).toMatchObject({ details: { method: "change_password", knownDevice: true } });
    expect((await client.post("/api/auth/change-password", { currentPassword: PASSWORD, newPassword: "a brand new passphrase" })).status).toBe(200);
    expect(await lastOf(user.id, "password_changed")).toMatchObject({ details: { sessionsEnded: 0 } });
    const changedMail = await mailbox.waitFor(email, /password of your account was changed/);
    expect(changedMail.text).toContain("If this was not you");
    expect(changedMail.links).toContain(`${server.baseUrl}/account/activity`);

    const { totpURI, used } = await enableTwoFactor(client, new Set(), "a brand new passphrase");
    expect((await client.post("/api/auth/two-factor/generate-backup-codes", { password: "a brand new passphrase" })).status).toBe(200);
    expect((await client.post("/api/auth/two-factor/disable", { password: "wrong password!" })).status).toBe(400);
    expect((await client.post("/api/auth/two-factor/disable", { password: "a brand new passphrase" })).status).toBe(200);
    await mailbox.waitFor(email, /Two-factor authentication was turned off/);
    void totpURI;
    void used;

    const authenticator = new SoftAuthenticator(server.origin);
    const options = await client.get("/api/auth/passkey/generate-register-options");
    const added = await client.post("/api/auth/passkey/verify-registration", { response: authenticator.register(options.body).response, name: "My laptop" });
    expect(added.status, added.text).toBe(200);
    expect(await lastOf(user.id, "passkey_added")).toMatchObject({ details: { name: "My laptop" } });
    await mailbox.waitFor(email, /passkey was added/);
    expect((await client.post("/api/auth/passkey/delete-passkey", { id: "no-such-passkey" })).status).not.toBe(200);
    expect((await client.post("/api/auth/passkey/delete-passkey", { id: added.body.id })).status).toBe(200);

    // Another session, revoked by token; then a third, ended with "revoke other sessions".
    const other = browser();
    expect((await signIn(other, email, "a brand new passphrase")).status).toBe(200);
    const sessions = (await client.get("/api/auth/list-sessions")).body as Array<{ token: string; id: string }>;
    const otherToken = sessions.find((s) => s.token !== client.cookies.get("latchkey.session_token")?.split(".")[0])!.token;
    expect((await client.post("/api/auth/revoke-session", { token: otherToken })).status).toBe(200);
    expect((await signIn(other, email, "a brand new passphrase")).status).toBe(200);
    expect((await client.post("/api/auth/revoke-other-sessions")).status).toBe(200);

    // A verified address changes once the change is confirmed from it; then it is told where the account went.
    expect((await client.get(actionLink(await mailbox.waitFor(email, /Verify/)))).status).toBeLessThan(400);
    const newEmail = `moved-${Date.now()}@example.com`;
    expect((await client.post("/api/auth/change-email", { newEmail })).status).toBe(200);
    expect(await lastOf(user.id, "email_changed")).toBeUndefined();
    expect((await client.get(actionLink(await mailbox.waitFor(email, /Confirm your new email/)))).status).toBeLessThan(400);
    expect(await lastOf(user.id, "email_changed")).toMatchObject({ details: { from: email, to: newEmail, fromVerified: true } });
    const toOld = await mailbox.waitFor(email, /email address of your account was changed/);
    expect(toOld.to).toEqual([email]);
    expect(toOld.text).toContain(`from ${email} to ${newEmail}`);

    expect((await client.post("/api/auth/sign-out")).status).toBe(200);
    expect(await typesOf(user.id)).toEqual([
      "sign_in",
      "sign_in_failed",
      "password_changed",
      "two_factor_enabled",
      "backup_codes_generated",
      "sign_in_failed",
      "two_factor_disabled",
      "passkey_added",
      "passkey_removed",
      "sign_in",
      "session_revoked",
      "sign_in",
      "session_revoked",
      "email_verified",
      "email_changed",
      "sign_out",
    ]);
    expect((await lastOf(user.id, "session_revoked"))?.details).toEqual({ others: true, count: 1 });
  });

  it("e-mail verification and a password reset by link", async () => {
    const client = browser();
    const { email, user } = await signUp(client);
    const verify = await mailbox.waitFor(email, /Verify/);
    // In the browser that signed up (elsewhere the first proof would claim the account and end its session, ADR 028).
    expect((await client.get(actionLink(verify))).status).toBeLessThan(400);
    expect((await lastOf(user.id, "email_verified"))?.details).toEqual({ email });

    expect((await browser().post("/api/auth/request-password-reset", { email })).status).toBe(200);
    const reset = await mailbox.waitFor(email, /Reset your password/);
    const token = new URL(actionLink(reset)).pathname.split("/").at(-1)!;
    expect((await browser().post("/api/auth/reset-password", { token: "not-a-token", newPassword: "a reset passphrase" })).status).toBe(400);
    expect(await lastOf(user.id, "password_reset")).toBeUndefined();
    expect((await browser().post("/api/auth/reset-password", { token, newPassword: "a reset passphrase" })).status).toBe(200);
    expect(await lastOf(user.id, "password_reset")).toMatchObject({ details: { sessionsEnded: 1 } });
    // One mail after a reset: the password_reset event sends it.
    await mailbox.waitFor(email, /password of your account was reset/);
  });

  it("a provider account linked and unlinked", async () => {
    const client = browser();
    const { email, user } = await signUp(client);
    claims = { sub: `sub-${email}`, email, email_verified: true, name: "Linked Person" };
    const start = await client.post("/api/auth/link-social", { provider: "oidc", callbackURL: "/account" });
    const authorize = await fetch(start.body.url, { redirect: "manual" });
    await client.get(authorize.headers.get("location")!);
    expect(await lastOf(user.id, "account_linked")).toMatchObject({ details: { provider: "oidc", providerName: "Test SSO" } });
    await mailbox.waitFor(email, /account was linked/);
    expect((await client.post("/api/auth/unlink-account", { providerId: "oidc" })).status).toBe(200);
    expect(await lastOf(user.id, "account_unlinked")).toMatchObject({ details: { provider: "oidc" } });
  });

  it("no stored detail is a secret: no password, token, code or hash, by key or by value", async () => {
    const rows = await query<{ details: string; userAgent: string | null }>(server.database, `SELECT "details", "userAgent" FROM "securityEvent"`);
    expect(rows.length).toBeGreaterThan(20);
    const tokens = await query<{ token: string }>(server.database, `SELECT "token" FROM "session"`);
    for (const row of rows) {
      const details = JSON.parse(row.details) as Record<string, unknown>;
      for (const key of Object.keys(details)) expect(key).not.toMatch(/token|secret|password|hash|code|otp|cookie/i);
      for (const secret of [PASSWORD, "a brand new passphrase", "a reset passphrase", ...tokens.map((t) => t.token)]) expect(row.details).not.toContain(secret);
      expect(row.details).not.toMatch(/[0-9a-f]{32}:[0-9a-f]{64,}/); // a scrypt hash
    }
  });
});

describe("GET /list-security-events", () => {
  it("the owner's events, newest first, a page at a time; the last page has no cursor", async () => {
    const client = browser();
    const { email, user } = await signUp(client);
    for (let i = 0; i < 4; i++) await signIn(client, email);
    const all = await client.get("/api/auth/list-security-events");
    expect(all.status).toBe(200);
    expect(all.body.nextCursor).toBeNull();
    expect(all.body.events).toHaveLength(5);
    expect(Object.keys(all.body.events[0]).sort()).toEqual(["byAdministrator", "createdAt", "details", "device", "id", "ipAddress", "type", "userAgent"]);
    expect(all.body.events.map((e: { id: string }) => e.id)).toEqual((await storedEvents(user.id)).map((e) => e.id).reverse());

    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { events: Array<{ id: string }>; nextCursor: string | null } } = await client.get(`/api/auth/list-security-events?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      expect(page.body.events.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.events.map((e) => e.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual(all.body.events.map((e: { id: string }) => e.id));
  });

  it("refuses a limit out of range, a garbled cursor and somebody else's cursor with 400 {code, message}; needs a session", async () => {
    const client = browser();
    const { email } = await signUp(client);
    await signIn(client, email);
    for (const limit of ["0", "101", "abc", "-1", "1.5"]) {
      const refused = await client.get(`/api/auth/list-security-events?limit=${limit}`);
      expect(refused.status).toBe(400);
      expect(refused.body).toEqual({ code: "INVALID_LIMIT", message: "Invalid limit" });
    }
    for (const limit of ["1", "100"]) expect((await client.get(`/api/auth/list-security-events?limit=${limit}`)).status).toBe(200);
    const garbled = await client.get("/api/auth/list-security-events?cursor=not-a-cursor");
    expect(garbled.body).toEqual({ code: "INVALID_CURSOR", message: "Invalid cursor" });

    const other = browser();
    const them = await signUp(other);
    await signIn(other, them.email);
    const theirs = (await other.get("/api/auth/list-security-events?limit=1")).body.nextCursor as string;
    expect(theirs).toBeTruthy();
    const foreign = await client.get(`/api/auth/list-security-events?cursor=${encodeURIComponent(theirs)}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.code).toBe("INVALID_CURSOR");

    expect((await browser().get("/api/auth/list-security-events")).status).toBe(401);
  });
});

describe("POST /end-all-sessions (This wasn't me)", () => {
  it("ends every session, this one too, forgets known and trusted devices, records the event and mails a reset link", async () => {
    const owner = browser();
    const { email, user } = await signUp(owner);
    const { totpURI, used } = await enableTwoFactor(owner);
    // A laptop that finished the second step and asked to be trusted.
    const laptop = browser();
    expect((await signIn(laptop, email)).body.twoFactorRedirect).toBe(true);
    expect((await laptop.post("/api/auth/two-factor/verify-totp", { code: freshCode(totpURI, used), trustDevice: true })).status).toBe(200);
    await laptop.post("/api/auth/sign-out");
    expect((await signIn(laptop, email)).body.token).toBeTruthy(); // trusted: no second step
    expect(await count(server.database, "knownDevice", `"userId" = ?`, [user.id])).toBe(2);

    expect((await browser().post("/api/auth/end-all-sessions", {})).status).toBe(401);
    const ended = await owner.post("/api/auth/end-all-sessions", {});
    expect(ended.status).toBe(200);
    expect(ended.body).toEqual({ status: true });
    expect((await owner.get("/api/auth/get-session")).body).toBeNull();
    expect((await laptop.get("/api/auth/get-session")).body).toBeNull();
    expect(await count(server.database, "session", `"userId" = ?`, [user.id])).toBe(0);
    expect(await count(server.database, "knownDevice", `"userId" = ?`, [user.id])).toBe(0);
    expect(await lastOf(user.id, "sessions_ended_by_owner")).toMatchObject({ details: { sessionsEnded: 2, resetLinkMailed: true } });
    // Its own mail, not the reset request's (issue 41; its words: security-mails.test.ts).
    const reset = await mailbox.waitFor(email, /You signed out everywhere/);
    expect(actionLink(reset)).toContain("/api/auth/reset-password/");

    // The laptop is trusted no more, and its next sign-in is from a new device.
    expect((await signIn(laptop, email)).body.twoFactorRedirect).toBe(true);
    expect((await laptop.post("/api/auth/two-factor/verify-totp", { code: freshCode(totpURI, used) })).status).toBe(200);
    expect((await lastOf(user.id, "sign_in"))?.details.newDevice).toBe(true);
  });
});

describe("for operators and on deletion", () => {
  it("AUTH_EVENT_LOG=stdout writes each event as one JSON line", async () => {
    const { user } = await signUp(browser());
    const line = await eventually(
      async () => server.output().split("\n").find((l) => l.startsWith('{"kind":"security_event"') && l.includes(`"userId":"${user.id}"`)),
      Boolean,
      5_000,
    );
    const logged = JSON.parse(line!);
    expect(logged).toMatchObject({ kind: "security_event", type: "sign_in", userId: user.id, details: { method: "password", signUp: true } });
    expect(new Date(logged.createdAt).toISOString()).toBe(logged.createdAt);
  });

  it("deleting the account deletes its events", async () => {
    const client = browser();
    const { user } = await signUp(client);
    expect(await count(server.database, "securityEvent", `"userId" = ?`, [user.id])).toBeGreaterThan(0);
    const deleted = await client.post("/api/auth/delete-user", { password: PASSWORD });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await count(server.database, "securityEvent", `"userId" = ?`, [user.id])).toBe(0);
  });
});

describe("through the pages (no JavaScript: plain form posts)", () => {
  const FORM = { "content-type": "application/x-www-form-urlencoded" };
  const post = (client: ApiClient, path: string, fields: Record<string, string>) =>
    client.request("POST", path, { rawBody: new URLSearchParams(fields).toString(), headers: FORM });

  it("a password change, a revoked session and This wasn't me are recorded as through the API, and the page lists them", async () => {
    const client = browser();
    const { email, user } = await signUp(client);
    const other = browser();
    expect((await signIn(other, email)).status).toBe(200);

    expect((await post(client, "/account/security", { intent: "change-password", currentPassword: "wrong password!", newPassword: "a page passphrase" })).status).toBe(400);
    expect(await lastOf(user.id, "password_changed")).toBeUndefined();
    expect((await post(client, "/account/security", { intent: "change-password", currentPassword: PASSWORD, newPassword: "a page passphrase" })).status).toBe(302);
    expect(await lastOf(user.id, "password_changed")).toBeTruthy();

    const otherSession = (await storedEvents(user.id)).filter((e) => e.type === "sign_in").at(-1)!.sessionId!;
    expect((await post(client, "/account/sessions", { intent: "revoke-session", sessionId: otherSession })).status).toBe(302);
    expect(await lastOf(user.id, "session_revoked")).toMatchObject({ sessionId: otherSession, details: {} });

    const page = await client.get("/account/activity");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Password changed");
    expect(page.text).toContain("New device");
    expect(page.text).toContain("Signed out a session");
    expect(page.text).toContain('href="/account/activity?confirm#not-me-heading"');
    expect((await client.get("/account/activity?confirm")).text).toContain("Yes, sign out everywhere");

    const ended = await post(client, "/account/activity", { intent: "end-all-sessions" });
    expect(ended.status).toBe(302);
    expect(ended.headers.get("location")).toBe("/");
    expect(await lastOf(user.id, "sessions_ended_by_owner")).toBeTruthy();
    expect(await count(server.database, "session", `"userId" = ?`, [user.id])).toBe(0);
    expect((await client.get("/account/activity")).status).toBe(302);
  });
});

describe("AUTH_NEW_DEVICE_MAIL=off", () => {
  it("records the new device but mails only the other notices", async () => {
    const quiet = await startServer({ env: { SMTP_URL: mailbox.url, AUTH_EMAIL_VERIFICATION: "off", AUTH_NEW_DEVICE_MAIL: "off" } });
    try {
      const owner = new ApiClient(quiet.baseUrl);
      const { email, user } = await signUp(owner);
      expect((await new ApiClient(quiet.baseUrl).post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
      expect((await owner.post("/api/auth/change-password", { currentPassword: PASSWORD, newPassword: "a quiet passphrase" })).status).toBe(200);
      await mailbox.waitFor(email, /password of your account was changed/);
      const rows = await query<{ details: string }>(quiet.database, `SELECT "details" FROM "securityEvent" WHERE "userId" = ? AND "type" = 'sign_in'`, [user.id]);
      expect(rows.map((row) => JSON.parse(row.details).newDevice)).toContain(true);
      expect(mailsTo(email, /New sign-in/)).toHaveLength(0);
    } finally {
      await quiet.stop();
    }
  });
});
