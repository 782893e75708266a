// Step-up (issue 39 §4, docs/decisions/059-step-up-confirm-its-you.md): what a stolen session cookie must not do
// alone needs the session recently verified — signed in, or confirmed it's them at /reverify, within ten minutes.
// Sessions are aged by hand (the session cache is off so every request reads the row).
import { describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, shownText } from "../support/client";
import { mailCount, nextMail } from "../support/mail";
import type { Mailbox } from "../support/mailbox";
import { useServerWithMailbox, type TestServer } from "../support/server";
import { query } from "../support/sql";
import { enableTwoFactor, freshCode } from "../support/two-factor";
import { SoftAuthenticator } from "../support/webauthn";

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const NOT_FRESH = { code: "SESSION_IS_NOT_FRESH", message: "Session is not fresh" };

let server: TestServer;
let mailbox: Mailbox;
useServerWithMailbox({ AUTH_EMAIL_VERIFICATION: "off", AUTH_SESSION_CACHE: "off" }, (running) => ({ server, mailbox } = running));

const at = (ms: number) => (server.database.kind === "sqlite" ? ms : new Date(ms));

/** Makes the user's sessions look signed in (and last confirmed) `minutes` ago. */
async function staleSessions(userId: string, minutes = 11) {
  const when = Date.now() - minutes * 60_000;
  await query(server.database, `UPDATE "session" SET "createdAt" = ?, "verifiedAt" = NULL WHERE "userId" = ?`, [at(when), userId]);
}

async function person(options: { verified?: boolean } = {}) {
  const client = new ApiClient(server.baseUrl);
  const created = await signUp(client);
  if (options.verified) await query(server.database, `UPDATE "user" SET "emailVerified" = ? WHERE "id" = ?`, [server.database.kind === "sqlite" ? 1 : true, created.user.id]);
  return { ...created, client };
}

async function events(userId: string, type: string): Promise<Array<Record<string, unknown>>> {
  const rows = await query<{ details: string }>(server.database, `SELECT "details" FROM "securityEvent" WHERE "userId" = ? AND "type" = ? ORDER BY "createdAt"`, [userId, type]);
  return rows.map((row) => JSON.parse(row.details));
}

describe("a session that has not confirmed it's its user recently", () => {
  it("is refused every guarded change with 403 and the ways it can confirm, each recorded, and nothing changes", async () => {
    const { client, user, email } = await person({ verified: true });
    const other = new ApiClient(server.baseUrl);
    expect((await other.post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    await staleSessions(user.id);
    const guarded: Array<[string, unknown]> = [
      ["/change-email", { newEmail: `new-${email}` }],
      ["/revoke-other-sessions", {}],
      ["/revoke-session", { token: "someone-elses-token" }],
    ];
    for (const [path, body] of guarded) {
      const refused = await client.post(`/api/auth${path}`, body);
      expect(refused.status, path).toBe(403);
      expect(refused.body).toEqual({ ...NOT_FRESH, reverifyMethods: ["password", "otp"] });
    }
    const deleted = await client.post("/api/auth/delete-user", {});
    expect(deleted.status).toBe(400);
    expect(deleted.body.code).toBe("SESSION_EXPIRED_REAUTHENTICATE_TO_PERFORM_THIS_ACTION");
    expect((await other.get("/api/auth/get-session")).body?.user.email).toBe(email);
    expect((await client.get("/api/auth/get-session")).body?.user.email).toBe(email);
    const refusals = await eventuallyCount(user.id, "sensitive_action_refused", 4);
    expect(refusals.map((details) => details.action).sort()).toEqual(["/change-email", "/delete-user", "/revoke-other-sessions", "/revoke-session"]);
    expect(refusals.every((details) => details.reason === "not_recently_verified")).toBe(true);
  });

  it("is not guarded where it ends itself too: sign-out everywhere, revoke-sessions", async () => {
    const { client, user } = await person();
    await staleSessions(user.id);
    expect((await client.post("/api/auth/revoke-sessions", {})).status).toBe(200);
    expect((await client.get("/api/auth/get-session")).body).toBeNull();
  });

  it("may still use a password in the body where the route asks for one, without two-factor", async () => {
    const { client, user } = await person();
    await staleSessions(user.id);
    const enabled = await client.post("/api/auth/two-factor/enable", { password: PASSWORD });
    expect(enabled.status, enabled.text).toBe(200);
  });
});

describe("confirming it's you", () => {
  it("with the password: this session only, for the window; a wrong one is 400 and recorded", async () => {
    const { client, user, email } = await person();
    const other = new ApiClient(server.baseUrl);
    expect((await other.post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
    await staleSessions(user.id);
    const wrong = await client.post("/api/auth/reverify/password", { password: "not the password" });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ code: "INVALID_PASSWORD", message: "Invalid password" });
    expect((await client.post("/api/auth/change-email", { newEmail: `a-${email}` })).status).toBe(403);

    const right = await client.post("/api/auth/reverify/password", { password: PASSWORD });
    expect(right.status, right.text).toBe(200);
    expect(right.body).toEqual({ status: true });
    expect((await client.post("/api/auth/change-email", { newEmail: `a-${email}` })).status).toBe(200);
    // The other session keeps its own time.
    expect((await other.post("/api/auth/revoke-other-sessions", {})).status).toBe(403);
    expect(await eventuallyCount(user.id, "reverified", 1)).toEqual([{ method: "password" }]);
    expect(await eventuallyCount(user.id, "reverify_failed", 1)).toEqual([{ method: "password" }]);
  });

  it("a confirmation outlives a password change that signs out the other devices (the replacement keeps it)", async () => {
    const { client, user, email } = await person();
    await staleSessions(user.id);
    expect((await client.post("/api/auth/reverify/password", { password: PASSWORD })).status).toBe(200);
    const changed = await client.post("/api/auth/change-password", { currentPassword: PASSWORD, newPassword: "a brand new passphrase 42", revokeOtherSessions: true });
    expect(changed.status, changed.text).toBe(200);
    expect((await client.post("/api/auth/change-email", { newEmail: `b-${email}` })).status).toBe(200);
    // Without that confirmation the replacement is as stale as the session it replaced.
    await staleSessions(user.id);
    const again = await client.post("/api/auth/change-password", { currentPassword: "a brand new passphrase 42", newPassword: "yet another passphrase 43", revokeOtherSessions: true });
    expect(again.status, again.text).toBe(200);
    const refused = await client.post("/api/auth/change-email", { newEmail: `c-${email}` });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject(NOT_FRESH);
  });

  it("with a code by e-mail, sent to the verified address; wrong codes are 400 INVALID_OTP", async () => {
    const { client, user, email } = await person({ verified: true });
    await staleSessions(user.id);
    const seen = mailCount(mailbox, email, /confirm it's you/);
    expect((await client.post("/api/auth/reverify/send-otp", {})).status).toBe(200);
    const mail = await nextMail(mailbox, email, /confirm it's you/, seen);
    const code = /\b(\d{6})\b/.exec(mail.text)![1];
    const wrong = await client.post("/api/auth/reverify/otp", { code: code === "000000" ? "111111" : "000000" });
    expect(wrong.body).toEqual({ code: "INVALID_OTP", message: "Invalid OTP" });
    expect((await client.post("/api/auth/reverify/otp", { code })).status).toBe(200);
    expect((await client.post("/api/auth/revoke-other-sessions", {})).status).toBe(200);
    // Used once.
    expect((await client.post("/api/auth/reverify/otp", { code })).status).toBe(400);
  });

  it("by e-mail is not offered to an unverified address", async () => {
    const { client, user } = await person();
    await staleSessions(user.id);
    expect((await client.post("/api/auth/reverify/send-otp", {})).body.code).toBe("EMAIL_NOT_VERIFIED");
  });

  it("with one of the account's own passkeys, never another account's", async () => {
    const owner = await person();
    const stranger = await person();
    const authenticator = new SoftAuthenticator(server.origin);
    for (const { client } of [owner, stranger]) {
      const options = await client.get("/api/auth/passkey/generate-register-options");
      expect((await client.post("/api/auth/passkey/verify-registration", { response: authenticator.register(options.body).response })).status).toBe(200);
    }
    await staleSessions(owner.user.id);
    const refused = await owner.client.post("/api/auth/revoke-other-sessions", {});
    expect(refused.body.reverifyMethods).toEqual(["password", "passkey"]);

    const strangers = await owner.client.post("/api/auth/reverify/passkey-options", {});
    expect(strangers.status).toBe(200);
    const withTheirs = authenticator.authenticate(strangers.body, authenticator.credentials[1]);
    expect((await owner.client.post("/api/auth/reverify/passkey", { response: withTheirs })).body.code).toBe("AUTH_CANCELLED");

    const options = await owner.client.post("/api/auth/reverify/passkey-options", {});
    expect(options.body.allowCredentials.map((c: { id: string }) => c.id)).toEqual([authenticator.credentials[0].id.toString("base64url")]);
    const confirmed = await owner.client.post("/api/auth/reverify/passkey", { response: authenticator.authenticate(options.body, authenticator.credentials[0]) });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect((await owner.client.post("/api/auth/revoke-other-sessions", {})).status).toBe(200);
  });
});

describe("an account with two-factor on", () => {
  it("needs both factors: a password or mailed code alone is refused, TOTP works, and a password in the body is not enough", async () => {
    const { client, user } = await person({ verified: true });
    const { totpURI, used } = await enableTwoFactor(client);
    await staleSessions(user.id);
    const refused = await client.post("/api/auth/two-factor/generate-backup-codes", { password: PASSWORD });
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ ...NOT_FRESH, reverifyMethods: ["totp"] });
    for (const [path, body] of [
      ["/two-factor/disable", { password: PASSWORD }],
      ["/two-factor/get-totp-uri", { password: PASSWORD }],
      ["/two-factor/set-otp", { password: PASSWORD, enabled: true }],
      ["/two-factor/enable", { password: PASSWORD }],
      ["/delete-user", { password: PASSWORD }],
    ] as const) {
      const stale = await client.post(`/api/auth${path}`, body);
      expect(stale.status, path).toBe(path === "/delete-user" ? 400 : 403);
    }

    for (const [path, body] of [["/reverify/password", { password: PASSWORD }], ["/reverify/send-otp", {}], ["/reverify/otp", { code: "123456" }]] as const) {
      const alone = await client.post(`/api/auth${path}`, body);
      expect(alone.status, path).toBe(403);
      expect(alone.body).toEqual({ code: "SECOND_FACTOR_REQUIRED", message: "Second factor required" });
    }
    expect((await client.post("/api/auth/reverify/totp", { code: "000000" })).body.code).toBe("INVALID_CODE");
    const confirmed = await client.post("/api/auth/reverify/totp", { code: freshCode(totpURI, used) });
    expect(confirmed.status, confirmed.text).toBe(200);
    expect((await client.post("/api/auth/two-factor/generate-backup-codes", { password: PASSWORD })).status).toBe(200);
  });
});

describe("administrators", () => {
  it("are refused every act from a stale session, before anything changes", async () => {
    const admin = await person();
    const target = await person();
    await query(server.database, `UPDATE "user" SET "role" = 'admin' WHERE "id" = ?`, [admin.user.id]);
    await staleSessions(admin.user.id);
    const userId = target.user.id;
    const acts: Array<[string, Record<string, unknown>]> = [
      ["/admin/create-user", { email: `made-${target.email}`, password: PASSWORD, name: "Made" }],
      ["/admin/update-user", { userId, data: { name: "Renamed" } }],
      ["/admin/set-role", { userId, role: "admin" }],
      ["/admin/ban-user", { userId }],
      ["/admin/unban-user", { userId }],
      ["/admin/revoke-user-session", { sessionToken: "whatever" }],
      ["/admin/revoke-user-sessions", { userId }],
      ["/admin/remove-user", { userId }],
      ["/admin/set-user-password", { userId, newPassword: "another fine password" }],
      ["/admin/impersonate-user", { userId }],
    ];
    for (const [path, body] of acts) {
      const refused = await admin.client.post(`/api/auth${path}`, body);
      expect(refused.status, `${path} ${refused.text}`).toBe(403);
      expect(refused.body.code, path).toBe("SESSION_IS_NOT_FRESH");
    }
    const [row] = await query<{ name: string; role: string; banned: unknown }>(server.database, `SELECT "name", "role", "banned" FROM "user" WHERE "id" = ?`, [userId]);
    expect(row).toMatchObject({ name: "Test User", role: "user" });
    expect(Boolean(row.banned)).toBe(false);
  });

  it("register an application in the console only from a recently verified session: a late form goes to Confirm it's you", async () => {
    const admin = await person();
    await query(server.database, `UPDATE "user" SET "role" = 'admin' WHERE "id" = ?`, [admin.user.id]);
    await staleSessions(admin.user.id);
    const fields = { intent: "register", name: "Sneaky App", redirectUris: "https://sneaky.example.com/cb", kind: "trusted" };
    const late = await admin.client.request("POST", "/admin/applications", { rawBody: new URLSearchParams(fields).toString(), headers: FORM });
    expect(late.status).toBe(302);
    expect(late.headers.get("location")).toBe("/reverify?redirectTo=%2Fadmin%2Fapplications");
    expect(await query(server.database, `SELECT 1 FROM "oidcClient" WHERE "name" = 'Sneaky App'`)).toEqual([]);
  });

  it("act only from a recently verified session", async () => {
    const admin = await person();
    const target = await person();
    await query(server.database, `UPDATE "user" SET "role" = 'admin' WHERE "id" = ?`, [admin.user.id]);
    await staleSessions(admin.user.id);
    const ban = await admin.client.post("/api/auth/admin/ban-user", { userId: target.user.id });
    expect(ban.status).toBe(403);
    expect(ban.body.code).toBe("SESSION_IS_NOT_FRESH");
    // Reads are not acts.
    expect((await admin.client.get("/api/auth/admin/list-users")).status).toBe(200);
    expect((await admin.client.post("/api/auth/reverify/password", { password: PASSWORD })).status).toBe(200);
    expect((await admin.client.post("/api/auth/admin/ban-user", { userId: target.user.id })).status).toBe(200);
  });
});

describe("the Confirm it's you page, without JavaScript", () => {
  it("offers the account's ways and goes back to a same-site page, never elsewhere", async () => {
    const { client, user } = await person({ verified: true });
    await staleSessions(user.id);
    const page = await client.get("/reverify?redirectTo=%2Faccount%2Fsessions");
    expect(page.status).toBe(200);
    expect(page.text).toContain("Confirm it&#x27;s you");
    expect(page.text).toContain('name="password"');
    expect(page.text).toContain("Email me a code");

    const wrong = await client.request("POST", "/reverify?redirectTo=%2Faccount%2Fsessions", { rawBody: "intent=password&password=nope", headers: FORM });
    expect(wrong.status).toBe(400);
    const right = await client.request("POST", "/reverify?redirectTo=%2Faccount%2Fsessions", {
      rawBody: new URLSearchParams({ intent: "password", password: PASSWORD }).toString(),
      headers: FORM,
    });
    expect(right.status).toBe(302);
    expect(right.headers.get("location")).toBe("/account/sessions");

    await staleSessions(user.id);
    const offSite = await client.request("POST", "/reverify?redirectTo=https%3A%2F%2Fevil.example%2F", {
      rawBody: new URLSearchParams({ intent: "password", password: PASSWORD }).toString(),
      headers: FORM,
    });
    expect(offSite.headers.get("location")).toBe("/account");
  });

  it("is where a refused page action sends the person, and back", async () => {
    const { client, user } = await person();
    await staleSessions(user.id);
    const refused = await client.request("POST", "/account/sessions", { rawBody: "intent=revoke-other-sessions", headers: FORM });
    expect(refused.status).toBe(302);
    expect(refused.headers.get("location")).toBe("/reverify?redirectTo=%2Faccount%2Fsessions");
  });

  it("is offered up front on the delete page to an account without a password, and signing in again stays a sign-in of this account", async () => {
    const { client, user } = await person();
    await query(server.database, `DELETE FROM "account" WHERE "userId" = ? AND "providerId" = 'credential'`, [user.id]);
    await staleSessions(user.id);
    const page = await client.get("/account/delete");
    expect(page.text).toContain('data-testid="confirm-its-you"');
    expect(page.text).toContain('href="/reverify?redirectTo=%2Faccount%2Fdelete"');
    expect(page.text).not.toContain('name="confirmEmail"');

    const again = await client.get("/sign-in?redirectTo=%2Faccount%2Fdelete&reauthenticate=1");
    expect(again.text).toContain("<h1>Sign in again</h1>");
    expect(shownText(again.text)).not.toContain("Create an account");
  });

  it("sends a signed-out visitor to sign in first", async () => {
    const anonymous = new ApiClient(server.baseUrl);
    const page = await anonymous.get("/reverify?redirectTo=%2Faccount");
    expect(page.status).toBe(302);
    expect(page.headers.get("location")).toContain("/sign-in?redirectTo=");
  });
});

/** The user's events of `type` once there are `n` (they are written after the answer). */
async function eventuallyCount(userId: string, type: string, n: number) {
  for (let i = 0; i < 100; i++) {
    const found = await events(userId, type);
    if (found.length >= n) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return events(userId, type);
}
