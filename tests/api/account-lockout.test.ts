// Wrong passwords counted per account across every client address (issue 39 §1,
// docs/decisions/057-account-lockout-by-device.md): a bucket for the account's new devices and one per known
// device, 10 wrong passwords a window each, counted before compared. Every request comes from its own client
// address (trusted proxy header, rate limits on), as a botnet's would, so the per-address limit never applies.
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ApiClient, eventually, PASSWORD, uniqueEmail, type ApiResponse } from "../support/client";
import { expectNoNewMail, mailCount, nextMail, sleep } from "../support/mail";
import type { Mailbox } from "../support/mailbox";
import { useServerWithMailbox, type TestServer } from "../support/server";
import { query } from "../support/sql";

const MAX = 10;
const WINDOW_SECONDS = 20;
const ENV = { AUTH_EMAIL_VERIFICATION: "off", AUTH_RATE_LIMIT: "on", TRUST_PROXY: "true", AUTH_LOCKOUT_WINDOW_SECONDS: String(WINDOW_SECONDS) };
const LOCK_MAIL = /Wrong passwords were tried on your account/;
const LOCKED = { code: "ACCOUNT_TEMPORARILY_LOCKED", message: "Account temporarily locked" };
const WRONG = "not the right password";
const FORM = { "content-type": "application/x-www-form-urlencoded" };

let mailbox: Mailbox;
let server: TestServer;
useServerWithMailbox(ENV, (running) => ({ server, mailbox } = running));

const uniqueIp = () => `10.${[...randomBytes(3)].join(".")}`;
/** A browser whose every request arrives from a new client address. */
class Botnet extends ApiClient {
  override request<T = any>(method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) {
    return super.request<T>(method, path, { ...options, headers: { "x-forwarded-for": uniqueIp(), ...options.headers } });
  }
}
const browser = () => new Botnet(server.baseUrl);
const signIn = (client: ApiClient, email: string, password: string) => client.post("/api/auth/sign-in/email", { email, password });
const pageSignIn = (client: ApiClient, identifier: string, password: string) =>
  client.request("POST", "/sign-in", { rawBody: new URLSearchParams({ email: identifier, password }).toString(), headers: FORM });

async function newAccount(extra: Record<string, string> = {}) {
  const owner = browser();
  const email = uniqueEmail("lockout");
  const response = await owner.post("/api/auth/sign-up/email", { name: "Lock Target", email, password: PASSWORD, ...extra });
  expect(response.status, response.text).toBe(200);
  return { email, owner, userId: response.body.user.id as string };
}

const events = (userId: string, type: string) =>
  query<{ details: string }>(server.database, `SELECT "details" FROM "securityEvent" WHERE "userId" = ? AND "type" = ?`, [userId, type]).then((rows) =>
    rows.map((row) => JSON.parse(row.details) as Record<string, unknown>),
  );

function expectLocked(response: ApiResponse) {
  expect(response.status, response.text).toBe(429);
  expect(response.body).toEqual(LOCKED);
  const retryAfter = Number(response.headers.get("retry-after"));
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  expect(response.headers.get("x-retry-after")).toBe(String(retryAfter));
  return retryAfter;
}

/** What a caller can see of an answer, short of its timing. */
const shape = (r: ApiResponse) => ({
  status: r.status,
  body: r.body,
  headers: [...r.headers.keys()].filter((name) => name !== "date").sort(),
  cookies: r.setCookies.map((line) => line.slice(0, line.indexOf("="))).sort(),
});

describe("wrong passwords per account, across client addresses", () => {
  it("locks the new-devices bucket after 10 wrong, refusing the right password uncompared; the owner's device and the end of the window get in", async () => {
    const { email, owner, userId } = await newAccount();
    const mails = mailCount(mailbox, email, LOCK_MAIL);
    for (let i = 0; i < MAX; i++) expect((await signIn(browser(), email, WRONG)).status).toBe(401);
    const signInsBefore = (await events(userId, "sign_in")).length;
    const retryAfter = expectLocked(await signIn(browser(), email, PASSWORD));
    expectLocked(await signIn(browser(), email, WRONG));

    // The owner's browser (it created the account) has a bucket of its own.
    for (let i = 0; i < 3; i++) expect((await signIn(owner, email, WRONG)).status).toBe(401);
    expect((await signIn(owner, email, PASSWORD)).status).toBe(200);

    // One mail and one account_locked per lock; every compared wrong password a sign_in_failed, every refusal a sign_in_blocked.
    const mail = await nextMail(mailbox, email, LOCK_MAIL, mails);
    expect(mail.text).toContain("/account/activity");
    expect(mail.text).toMatch(/passkey/);
    expect(mail.text).toMatch(/reset/i);
    await expectNoNewMail(mailbox, email, mailbox.to(email).length);
    expect(mailCount(mailbox, email, LOCK_MAIL)).toBe(mails + 1);
    const locked = await events(userId, "account_locked");
    expect(locked).toHaveLength(1);
    expect(locked[0]).toMatchObject({ scope: "new_devices" });
    expect(Date.parse(String(locked[0].until))).toBeGreaterThan(Date.now());
    const failed = await eventually(() => events(userId, "sign_in_failed"), (rows) => rows.length === MAX + 3);
    expect(failed.filter((d) => d.knownDevice === true)).toHaveLength(3);
    expect(failed.filter((d) => d.knownDevice === false)).toHaveLength(MAX);
    const blocked = await eventually(() => events(userId, "sign_in_blocked"), (rows) => rows.length === 2);
    expect(blocked.every((d) => d.reason === "locked")).toBe(true);
    // The refused right password was never compared: the only new sign-in is the owner's.
    expect((await events(userId, "sign_in")).length).toBe(signInsBefore + 1);

    await sleep(retryAfter * 1000 + 200);
    expect((await signIn(browser(), email, PASSWORD)).status).toBe(200);
  }, 60_000);

  it("counts before it compares: of 25 wrong passwords sent at once, 10 are compared and one lock is recorded", async () => {
    const { email, userId } = await newAccount();
    const answers = await Promise.all(Array.from({ length: 25 }, () => signIn(browser(), email, WRONG)));
    expect(answers.filter((r) => r.status === 401)).toHaveLength(MAX);
    expect(answers.filter((r) => r.status === 429 && r.body?.code === LOCKED.code)).toHaveLength(25 - MAX);
    await eventually(() => events(userId, "sign_in_blocked"), (rows) => rows.length === 25 - MAX);
    // Written after each answer, like the refusals': waited for, not assumed.
    await eventually(() => events(userId, "sign_in_failed"), (rows) => rows.length >= MAX);
    expect(await events(userId, "sign_in_failed")).toHaveLength(MAX);
    expect(await events(userId, "account_locked")).toHaveLength(1);
  }, 60_000);

  it("answers a known and an unknown address alike, step by step to past the lock", async () => {
    const { email, userId } = await newAccount();
    const nobody = uniqueEmail("nobody");
    for (let i = 0; i < MAX + 2; i++) {
      const password = i === MAX ? PASSWORD : WRONG;
      const known = await signIn(browser(), email, password);
      const unknown = await signIn(browser(), nobody, password);
      expect(shape(known), `attempt ${i + 1}`).toEqual(shape(unknown));
      expect(known.status).toBe(i < MAX ? 401 : 429);
    }
    // Only the account has events.
    await eventually(() => events(userId, "sign_in_blocked"), (rows) => rows.length === 2);
  }, 60_000);

  it("the API and the page share one budget, and so do the e-mail address and the username", async () => {
    const username = `lock${randomBytes(4).toString("hex")}`;
    const { email } = await newAccount({ username });
    for (let i = 0; i < 3; i++) expect((await signIn(browser(), email, WRONG)).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await browser().post("/api/auth/sign-in/username", { username, password: WRONG })).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await pageSignIn(browser(), email, WRONG)).status).toBe(401);
    for (let i = 0; i < 2; i++) expect((await pageSignIn(browser(), username, WRONG)).status).toBe(401);
    expectLocked(await browser().post("/api/auth/sign-in/username", { username, password: PASSWORD }));
    expectLocked(await signIn(browser(), email, PASSWORD));
    const page = await pageSignIn(browser(), email, PASSWORD);
    expect(page.status).toBe(429);
    expect(page.text).toContain("too many failed password attempts for this account from new devices");
    expect(page.text).toMatch(/Try again in \d+ minutes?/);
    expect(page.text).toMatch(/passkey/);
  }, 60_000);

  it("in-session password checks count in the device's bucket: change-password, delete-user, two-factor", async () => {
    const { email, owner } = await newAccount();
    for (let i = 0; i < 4; i++) {
      expect((await owner.post("/api/auth/change-password", { currentPassword: WRONG, newPassword: "a brand new passphrase" })).status).toBe(400);
    }
    for (let i = 0; i < 3; i++) expect((await owner.post("/api/auth/delete-user", { password: WRONG })).status).toBe(400);
    for (let i = 0; i < 3; i++) expect((await owner.post("/api/auth/two-factor/enable", { password: WRONG })).status).toBe(400);
    expectLocked(await owner.post("/api/auth/change-password", { currentPassword: PASSWORD, newPassword: "a brand new passphrase" }));
    expectLocked(await signIn(owner, email, PASSWORD));
    // The page words it as this device's lock, not the strangers' (signed out, the device cookie stays).
    expect((await owner.post("/api/auth/sign-out", {})).status).toBe(200);
    const page = await pageSignIn(owner, email, PASSWORD);
    expect(page.status).toBe(429);
    expect(page.text).toContain("too many failed password attempts from this device");
    // Strangers' bucket is another one: a new browser with the password gets in.
    expect((await signIn(browser(), email, PASSWORD)).status).toBe(200);
    // Each compared wrong password is a failed sign-in on the owner's activity, naming the check.
    const failed = await eventually(
      () => query<{ details: string }>(server.database, `SELECT e."details" FROM "securityEvent" e JOIN "user" u ON u."id" = e."userId" WHERE u."email" = ? AND e."type" = 'sign_in_failed'`, [email]),
      (rows) => rows.length >= 10,
    );
    const methods = failed.map((row) => JSON.parse(row.details).method);
    expect(methods.filter((m) => m === "change_password")).toHaveLength(4);
    expect(methods.filter((m) => m === "delete_user")).toHaveLength(3);
    expect(methods.filter((m) => m === "two_factor_password")).toHaveLength(3);
  }, 60_000);
});
