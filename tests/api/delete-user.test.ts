// POST /delete-user and GET /delete-user/callback (issue 3, spec §6): enabled by AUTH_DELETE_ACCOUNT, needs the
// password or a fresh session, and in "email" mode also the e-mailed link, followed while signed in.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp } from "../support/client";
import { COOKIE, clears } from "../support/cookies";
import { checkMail, expectNoNewMail, mailCount, nextMail, sleep, withParam } from "../support/mail";
import { type Mailbox } from "../support/mailbox";
import { sharedMailbox, sharedServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

const DELETE = "/api/auth/delete-user";
const CONFIRM = /Confirm the deletion of your account/;
const DELETED = { success: true, message: "User deleted" };
const SENT = { success: true, message: "Verification email sent" };

let mailbox: Mailbox;
let server: TestServer; // AUTH_DELETE_ACCOUNT=on (the default)
let disabled: TestServer; // AUTH_DELETE_ACCOUNT=off
let stale: TestServer; // AUTH_SESSION_FRESH_AGE=1
let byEmail: TestServer; // AUTH_DELETE_ACCOUNT=email

beforeAll(async () => {
  mailbox = await sharedMailbox();
  // No verification mail on sign-up: the only mail in these tests is the deletion confirmation.
  const base = { SMTP_URL: mailbox.url, AUTH_EMAIL_VERIFICATION: "off" };
  [server, disabled, stale, byEmail] = await Promise.all([
    sharedServer({ env: base }),
    sharedServer({ env: { ...base, AUTH_DELETE_ACCOUNT: "off" } }),
    sharedServer({ env: { ...base, AUTH_SESSION_FRESH_AGE: "1" } }),
    sharedServer({ env: { ...base, AUTH_DELETE_ACCOUNT: "email" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server, disabled, stale, byEmail].map((s) => s?.stop()));
  await mailbox?.stop();
});

async function signedIn(target: TestServer = server) {
  const client = new ApiClient(target.baseUrl);
  const created = await signUp(client);
  return { ...created, id: created.user.id as string, client };
}

const signInStatus = async (target: TestServer, email: string) =>
  (await new ApiClient(target.baseUrl).post("/api/auth/sign-in/email", { email, password: PASSWORD })).status;

/** Rows the user owns, table by table. */
async function rowsOf(target: TestServer, userId: string) {
  const db = target.database;
  return {
    user: await count(db, "user", `"id" = ?`, [userId]),
    session: await count(db, "session", `"userId" = ?`, [userId]),
    account: await count(db, "account", `"userId" = ?`, [userId]),
    verification: await count(db, "verification", `"value" LIKE ?`, [`%${userId}%`]),
    passkey: await count(db, "passkey", `"userId" = ?`, [userId]),
    twoFactor: await count(db, "twoFactor", `"userId" = ?`, [userId]),
    member: await count(db, "member", `"userId" = ?`, [userId]),
  };
}
const NOTHING = { user: 0, session: 0, account: 0, verification: 0, passkey: 0, twoFactor: 0, member: 0 };

/** Gives the user a second session, a pending reset link, a passkey, two-factor and a membership. */
async function furnish(target: TestServer, account: { id: string; email: string }) {
  const phone = new ApiClient(target.baseUrl);
  expect((await phone.post("/api/auth/sign-in/email", { email: account.email, password: PASSWORD })).status).toBe(200);
  expect((await new ApiClient(target.baseUrl).post("/api/auth/forget-password", { email: account.email })).status).toBe(200);
  await nextMail(mailbox, account.email, /Reset your password/, 0);
  const db = target.database;
  const suffix = account.id.slice(0, 12);
  await query(db, `INSERT INTO "passkey" ("id", "publicKey", "userId", "credentialID", "counter", "deviceType", "backedUp") VALUES (?, 'pk', ?, ?, 0, 'singleDevice', ?)`, [`pk-${suffix}`, account.id, `cred-${suffix}`, 0]);
  await query(db, `INSERT INTO "twoFactor" ("id", "secret", "backupCodes", "userId") VALUES (?, 's', 'c', ?)`, [`tf-${suffix}`, account.id]);
  await query(db, `INSERT INTO "organization" ("id", "name", "slug") VALUES (?, 'Org', ?)`, [`org-${suffix}`, `org-${suffix}`]);
  await query(db, `INSERT INTO "member" ("id", "organizationId", "userId", "role") VALUES (?, ?, ?, 'owner')`, [`m-${suffix}`, `org-${suffix}`, account.id]);
  expect(await rowsOf(target, account.id)).toEqual({ user: 1, session: 2, account: 1, verification: 1, passkey: 1, twoFactor: 1, member: 1 });
  return phone;
}

describe("AUTH_DELETE_ACCOUNT=on (the default)", () => {
  it("deletes the user and everything that cannot outlive them with the right password", async () => {
    const account = await signedIn();
    const phone = await furnish(server, account);
    const bystander = await signedIn();
    const response = await account.client.post(DELETE, { password: PASSWORD });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(DELETED);
    expect(clears(response, COOKIE.sessionToken)).toBe(true);
    expect(await rowsOf(server, account.id)).toEqual(NOTHING);
    expect((await account.client.get("/api/auth/get-session")).body).toBeNull();
    expect((await phone.get("/api/auth/get-session")).body).toBeNull();
    expect(await signInStatus(server, account.email)).toBe(401);
    expect((await bystander.client.get("/api/auth/get-session")).body.user.id).toBe(bystander.id);
  });

  it("answers 400 INVALID_PASSWORD for a wrong password and deletes nothing", async () => {
    const account = await signedIn();
    const response = await account.client.post(DELETE, { password: `${PASSWORD}x` });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
    expect((await rowsOf(server, account.id)).user).toBe(1);
    expect((await account.client.get("/api/auth/get-session")).body.user.id).toBe(account.id);
  });

  it("deletes without a password when the session is fresh", async () => {
    const account = await signedIn();
    const response = await account.client.post(DELETE, {});
    expect(response.status).toBe(200);
    expect(response.body).toEqual(DELETED);
    expect(await rowsOf(server, account.id)).toEqual(NOTHING);
    expect(await signInStatus(server, account.email)).toBe(401);
  });

  it("answers 400 CREDENTIAL_ACCOUNT_NOT_FOUND for a password when the user has none", async () => {
    const account = await signedIn();
    await query(server.database, `DELETE FROM "account" WHERE "userId" = ?`, [account.id]);
    const response = await account.client.post(DELETE, { password: PASSWORD });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "CREDENTIAL_ACCOUNT_NOT_FOUND", message: "Credential account not found" });
    expect((await rowsOf(server, account.id)).user).toBe(1);
  });

  it("answers 401 when signed out", async () => {
    const response = await new ApiClient(server.baseUrl).post(DELETE, { password: PASSWORD });
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("answers both of two deletions sent at once (a double-clicked button) without a 500", async () => {
    const { client, email } = await signedIn();
    const responses = await Promise.all([0, 1, 2].map(() => client.post("/api/auth/delete-user", { password: PASSWORD })));
    for (const response of responses) expect(response.status, response.text).toBeLessThan(500);
    expect(responses.filter((r) => r.status === 200).length).toBeGreaterThanOrEqual(1);
    expect(await count(server.database, "user", `"email" = ?`, [email])).toBe(0);
  });
});

describe("AUTH_DELETE_ACCOUNT=off", () => {
  it("answers 404 and deletes nothing", async () => {
    const account = await signedIn(disabled);
    const response = await account.client.post(DELETE, { password: PASSWORD });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ code: "DELETE_USER_IS_DISABLED" });
    const callback = await account.client.get(`${DELETE}/callback?token=${"a".repeat(32)}`);
    expect(callback.status).toBe(404);
    expect((await rowsOf(disabled, account.id)).user).toBe(1);
    expect(await signInStatus(disabled, account.email)).toBe(200);
  });
});

describe("a session older than AUTH_SESSION_FRESH_AGE", () => {
  it("needs the password: without it, 400 \"Session expired. Re-authenticate to perform this action.\"", async () => {
    const account = await signedIn(stale);
    await sleep(1_200);
    const refused = await account.client.post(DELETE, {});
    expect(refused.status).toBe(400);
    expect(refused.body).toEqual({
      code: "SESSION_EXPIRED_REAUTHENTICATE_TO_PERFORM_THIS_ACTION",
      message: "Session expired. Re-authenticate to perform this action.",
      // The ways to confirm it's them without signing in again (issue 39 §4).
      reverifyMethods: ["password"],
    });
    expect((await rowsOf(stale, account.id)).user).toBe(1);
    const withPassword = await account.client.post(DELETE, { password: PASSWORD });
    expect(withPassword.status).toBe(200);
    expect(withPassword.body).toEqual(DELETED);
    expect(await rowsOf(stale, account.id)).toEqual(NOTHING);
  });
});

describe("AUTH_DELETE_ACCOUNT=email", () => {
  /** Asks for the confirmation mail and returns its link and token. */
  async function requestConfirmation(account: { client: ApiClient; email: string }, body: Record<string, string> = { password: PASSWORD }) {
    const seen = mailCount(mailbox, account.email, CONFIRM);
    const response = await account.client.post(DELETE, body);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(SENT);
    const mail = await nextMail(mailbox, account.email, CONFIRM, seen);
    const link = checkMail(mail, byEmail.baseUrl, "24 hours");
    return { mail, link, token: new URL(link).searchParams.get("token")! };
  }

  it("mails a confirmation link (24 hours, a 32-character token) and deletes nothing yet", async () => {
    const account = await signedIn(byEmail);
    const { link, token } = await requestConfirmation(account, { password: PASSWORD, callbackURL: "/goodbye" });
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    const url = new URL(link);
    expect(url.pathname).toBe("/api/auth/delete-user/callback");
    expect(url.searchParams.get("callbackURL")).toBe("/goodbye");
    expect((await rowsOf(byEmail, account.id)).user).toBe(1);
    expect((await account.client.get("/api/auth/get-session")).body.user.id).toBe(account.id);
  });

  it("is not used up by HEAD (mail scanners and link previews send it)", async () => {
    const account = await signedIn(byEmail);
    const { link } = await requestConfirmation(account);
    const head = await account.client.request("HEAD", link);
    expect(head.status).toBe(200);
    expect((await rowsOf(byEmail, account.id)).user).toBe(1);
    const follow = await account.client.get(link);
    expect(follow.status).toBe(200);
    expect((await rowsOf(byEmail, account.id)).user).toBe(0);
  });

  it("deletes only when the link is followed while signed in as the owner, then redirects to the callbackURL", async () => {
    const account = await signedIn(byEmail);
    const { link } = await requestConfirmation(account, { password: PASSWORD, callbackURL: "/goodbye" });

    const signedOut = await new ApiClient(byEmail.baseUrl).get(link);
    expect(signedOut.status).toBe(401);
    expect((await rowsOf(byEmail, account.id)).user).toBe(1);

    const someoneElse = await signedIn(byEmail);
    const foreign = await someoneElse.client.get(link);
    expect(foreign.status).toBe(400);
    expect(foreign.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    expect((await rowsOf(byEmail, account.id)).user).toBe(1);
    expect((await rowsOf(byEmail, someoneElse.id)).user).toBe(1);

    const owner = await account.client.get(link);
    expect(owner.status).toBe(302);
    expect(owner.headers.get("location")).toBe(`${byEmail.baseUrl}/goodbye`);
    expect(clears(owner, COOKIE.sessionToken)).toBe(true);
    expect(await rowsOf(byEmail, account.id)).toEqual(NOTHING);
    expect(await signInStatus(byEmail, account.email)).toBe(401);

    // The used link does nothing more, whoever follows it.
    const reuse = await someoneElse.client.get(link);
    expect(reuse.status).toBe(400);
    expect(reuse.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    expect((await rowsOf(byEmail, someoneElse.id)).user).toBe(1);
  });

  it("answers JSON when the link has no callbackURL", async () => {
    const account = await signedIn(byEmail);
    const { link } = await requestConfirmation(account);
    expect(new URL(link).searchParams.has("callbackURL")).toBe(false);
    const response = await account.client.get(link);
    expect(response.status).toBe(200);
    expect(response.body).toEqual(DELETED);
    expect(await rowsOf(byEmail, account.id)).toEqual(NOTHING);
  });

  // Issue 27: a browser opening the mailed link (Accept: text/html) always lands on a page, never on raw JSON.
  const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };

  it("sends a browser to /account-deleted when the link's callbackURL was cut off, and to the page's words when it fails", async () => {
    const account = await signedIn(byEmail);
    const { link } = await requestConfirmation(account, { password: PASSWORD, callbackURL: "/account-deleted" });
    const cut = withParam(link, "callbackURL", null);

    const signedOut = await new ApiClient(byEmail.baseUrl).get(cut, BROWSER);
    expect(signedOut.status).toBe(302);
    expect(signedOut.headers.get("location")).toBe(`${byEmail.baseUrl}/account-deleted?error=unauthorized`);
    const truncated = await account.client.get(withParam(link, "token", new URL(link).searchParams.get("token")!.slice(0, 20)), BROWSER);
    expect(truncated.headers.get("location")).toBe(`${byEmail.baseUrl}/account-deleted?error=invalid_token`);
    expect((await rowsOf(byEmail, account.id)).user).toBe(1);

    const page = await new ApiClient(byEmail.baseUrl).get("/account-deleted?error=unauthorized", BROWSER);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Your account was not deleted");
    expect(page.text).toContain("sign in, then open the link again");
    expect(page.text).toContain("<title>Error: Account not deleted · Latchkey</title>");
    const invalid = await new ApiClient(byEmail.baseUrl).get("/account-deleted?error=invalid_token", BROWSER);
    expect(invalid.text).toContain("copy all of it into the address bar");

    const owner = await account.client.get(cut, BROWSER);
    expect(owner.status).toBe(302);
    expect(owner.headers.get("location")).toBe(`${byEmail.baseUrl}/account-deleted`);
    expect(await rowsOf(byEmail, account.id)).toEqual(NOTHING);
  });

  it("keeps the JSON answers for a client asking for JSON (or anything)", async () => {
    const account = await signedIn(byEmail);
    const { link } = await requestConfirmation(account);
    for (const accept of ["application/json", "*/*", "application/json, text/html;q=0.5"]) {
      const signedOut = await new ApiClient(byEmail.baseUrl).get(link, { accept });
      expect(signedOut.status, accept).toBe(401);
      expect(signedOut.body, accept).toMatchObject({ code: "UNAUTHORIZED" });
    }
    const response = await account.client.get(link, { accept: "application/json" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(DELETED);
  });

  it("accepts the token in POST /delete-user", async () => {
    const account = await signedIn(byEmail);
    const { token } = await requestConfirmation(account);
    const response = await account.client.post(DELETE, { token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual(DELETED);
    expect(await rowsOf(byEmail, account.id)).toEqual(NOTHING);
  });

  it("sends the mail without a password on a fresh session", async () => {
    const account = await signedIn(byEmail);
    await requestConfirmation(account, {});
    expect((await rowsOf(byEmail, account.id)).user).toBe(1);
  });

  it("refuses a wrong password with 400 and sends nothing", async () => {
    const account = await signedIn(byEmail);
    const response = await account.client.post(DELETE, { password: "not the password" });
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
    await expectNoNewMail(mailbox, account.email, 0, 300);
  });

  it("rejects a tampered or made-up token and deletes nothing", async () => {
    const account = await signedIn(byEmail);
    const { link, token } = await requestConfirmation(account);
    const tampered = `${token.slice(0, -1)}${token.endsWith("a") ? "b" : "a"}`;
    for (const bad of [tampered, "a".repeat(32), ""]) {
      const response = await account.client.get(withParam(link, "token", bad));
      expect(response.status, bad).toBe(400);
      expect(response.body).toEqual({ code: "INVALID_TOKEN", message: "invalid token" });
    }
    expect((await rowsOf(byEmail, account.id)).user).toBe(1);
    expect((await account.client.get(link)).body).toEqual(DELETED);
  });

  it("refuses a callbackURL on another site with 403", async () => {
    const account = await signedIn(byEmail);
    const response = await account.client.post(DELETE, { password: PASSWORD, callbackURL: "https://evil.example/" });
    expect(response.status).toBe(403);
    expect(response.body).toEqual({ code: "INVALID_CALLBACKURL", message: "Invalid callbackURL" });
    await expectNoNewMail(mailbox, account.email, 0, 200);
  });

  it("answers 502 when the mail cannot be sent, and the account stays with no usable link", async () => {
    const account = await signedIn(byEmail);
    await mailbox.refuse(account.email);
    let response;
    try {
      response = await account.client.post(DELETE, { password: PASSWORD });
    } finally {
      await mailbox.refuse(account.email, false);
    }
    expect(response.status).toBe(502);
    expect(response.body).toEqual({ code: "FAILED_TO_SEND_EMAIL", message: "Failed to send email" });
    expect(await rowsOf(byEmail, account.id)).toMatchObject({ user: 1, session: 1, account: 1, verification: 0 });
    expect((await account.client.get("/api/auth/get-session")).body.user.id).toBe(account.id);
    expect(await signInStatus(byEmail, account.email)).toBe(200);
  });
});
