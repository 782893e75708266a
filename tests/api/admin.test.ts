// Administration (issue 30), driven by Better Auth's official client with adminClient(): every admin endpoint,
// refusals for non-admins and signed-out callers (nothing changed), bans that take effect at once and end by
// themselves, impersonation and what it may not do, AUTH_ADMIN_EMAILS, the CLI, and hostile input.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { createAuthClient } from "better-auth/client";
import { adminClient } from "better-auth/client/plugins";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { browserFetch } from "../support/better-auth";
import { ApiClient, eventually, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { databaseKindUnderTest } from "../support/database";
import { count, query } from "../support/sql";
import { startServer, TEST_SECRET, type TestServer } from "../support/server";

const ADMIN_EMAIL = uniqueEmail("boss");
let server: TestServer;

beforeAll(async () => {
  server = await startServer({ env: { AUTH_EMAIL_VERIFICATION: "off", AUTH_ADMIN_EMAILS: `Other@example.com, ${ADMIN_EMAIL.toUpperCase()}`, AUTH_IMPERSONATION_SECONDS: "600" } });
}, 60_000);
afterAll(async () => server?.stop());

function officialClient() {
  const { customFetchImpl, jar } = browserFetch(server);
  return { client: createAuthClient({ baseURL: server.baseUrl, fetchOptions: { customFetchImpl }, plugins: [adminClient()] }), jar };
}

const markVerified = (email: string) => query(server.database, `UPDATE "user" SET "emailVerified" = (1=1) WHERE "email" = ?`, [email]);
const userRow = async (id: string) =>
  (await query<{ role: string; banned: unknown; banReason: string | null; banExpires: unknown }>(server.database, `SELECT "role", "banned", "banReason", "banExpires" FROM "user" WHERE "id" = ?`, [id]))[0];
const truthy = (value: unknown) => value === true || value === 1 || value === 1n;

/** The admin: AUTH_ADMIN_EMAILS names the address, which is verified, so the next sign-in makes it an admin. */
async function signedInAdmin() {
  const { client, jar } = officialClient();
  const existing = await client.signIn.email({ email: ADMIN_EMAIL, password: PASSWORD });
  if (existing.error) {
    expect((await client.signUp.email({ name: "The Boss", email: ADMIN_EMAIL, password: PASSWORD })).error).toBeNull();
    await markVerified(ADMIN_EMAIL);
    expect((await client.signIn.email({ email: ADMIN_EMAIL, password: PASSWORD })).error).toBeNull();
  }
  const session = await eventually(() => client.getSession(), (s) => (s.data?.user as { role?: string } | undefined)?.role === "admin");
  expect((session.data?.user as { role?: string }).role).toBe("admin");
  return { client, jar, id: session.data!.user.id };
}

async function signedInUser(name = "Someone") {
  const { client, jar } = officialClient();
  const email = uniqueEmail("member");
  const signedUp = await client.signUp.email({ name, email, password: PASSWORD });
  expect(signedUp.error).toBeNull();
  return { client, jar, email, id: signedUp.data!.user.id };
}

describe("the admin API with Better Auth's adminClient", () => {
  it("creates, lists, searches, reads, updates and sets roles", async () => {
    const { client: admin } = await signedInAdmin();
    const email = uniqueEmail("created");
    const created = await admin.admin.createUser({ email: email.toUpperCase(), password: PASSWORD, name: "Created Person", role: "user" });
    expect(created.error).toBeNull();
    expect(created.data?.user).toMatchObject({ email, name: "Created Person", role: "user", banned: false });
    const id = created.data!.user.id;
    expect((await admin.admin.createUser({ email, password: PASSWORD, name: "Again" })).error).toMatchObject({ status: 400, code: "USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL" });

    const found = await admin.admin.listUsers({ query: { searchValue: email.slice(0, 12), searchField: "email", searchOperator: "starts_with", limit: 5 } });
    expect(found.error).toBeNull();
    expect(found.data).toMatchObject({ total: 1, limit: 5 });
    expect(found.data!.users.map((u) => u.id)).toEqual([id]);
    const byName = await admin.admin.listUsers({ query: { searchValue: "created person", searchField: "name", limit: 100 } });
    expect(byName.data!.users.map((u) => u.id)).toContain(id);
    // Newest first by default, and pages that neither overlap nor skip.
    const first = await admin.admin.listUsers({ query: { limit: 1 } });
    expect(first.data!.users[0].id).toBe(id);
    const second = await admin.admin.listUsers({ query: { limit: 1, offset: 1 } });
    expect(second.data!.users[0].id).not.toBe(id);
    expect(second.data!.total).toBe(first.data!.total);
    const admins = await admin.admin.listUsers({ query: { filterField: "role", filterValue: "admin", filterOperator: "eq" } });
    expect(admins.data!.users.every((u) => u.role === "admin")).toBe(true);
    // An unknown field answers an empty page, as Better Auth's does.
    expect((await admin.admin.listUsers({ query: { sortBy: "password" } })).data).toMatchObject({ users: [], total: 0 });

    expect((await admin.admin.getUser({ query: { id } })).data).toMatchObject({ id, email });
    expect((await admin.admin.getUser({ query: { id: "nobody" } })).error).toMatchObject({ status: 404, code: "USER_NOT_FOUND" });

    const updated = await admin.admin.updateUser({ userId: id, data: { name: "Renamed Person", emailVerified: true } });
    expect(updated.error).toBeNull();
    expect(updated.data).toMatchObject({ name: "Renamed Person", emailVerified: true });
    expect((await admin.admin.updateUser({ userId: id, data: {} })).error).toMatchObject({ code: "NO_DATA_TO_UPDATE" });
    expect((await admin.admin.updateUser({ userId: id, data: { password: "x" } })).error).toMatchObject({ code: "PASSWORD_CANNOT_BE_UPDATED_VIA_UPDATE_USER" });

    expect((await admin.admin.setRole({ userId: id, role: "admin" })).data?.user.role).toBe("admin");
    expect((await admin.admin.setRole({ userId: id, role: "superhero" as "admin" })).error).toMatchObject({ code: "YOU_ARE_NOT_ALLOWED_TO_SET_NON_EXISTENT_VALUE" });
    expect((await admin.admin.setRole({ userId: id, role: "user" })).data?.user.role).toBe("user");
    expect(await count(server.database, "securityEvent", `"userId" = ? AND "type" = 'role_changed'`, [id])).toBe(2);
    expect(await count(server.database, "securityEvent", `"userId" = ? AND "type" = 'user_created_by_admin'`, [id])).toBe(1);

    expect((await admin.admin.hasPermission({ permissions: { user: ["ban", "impersonate"], session: ["revoke"] } })).data).toEqual({ error: null, success: true });
  });

  it("bans: every session ends at once, every sign-in is refused with BANNED_USER, and unbanning lets them in again", async () => {
    const { client: admin } = await signedInAdmin();
    const member = await signedInUser();
    const banned = await admin.admin.banUser({ userId: member.id, banReason: "spam" });
    expect(banned.error).toBeNull();
    expect(banned.data?.user).toMatchObject({ banned: true, banReason: "spam", banExpires: null });
    expect((await member.client.getSession()).data).toBeNull();
    const refused = await member.client.signIn.email({ email: member.email, password: PASSWORD });
    expect(refused.error).toMatchObject({ status: 403, code: "BANNED_USER", message: "You have been banned from this application" });
    expect(await count(server.database, "session", `"userId" = ?`, [member.id])).toBe(0);
    expect(await count(server.database, "securityEvent", `"userId" = ? AND "type" = 'user_banned' AND "actorUserId" IS NOT NULL`, [member.id])).toBe(1);

    const unbanned = await admin.admin.unbanUser({ userId: member.id });
    expect(unbanned.data?.user).toMatchObject({ banned: false, banReason: null, banExpires: null, role: "user" });
    expect((await member.client.signIn.email({ email: member.email, password: PASSWORD })).error).toBeNull();
  });

  it("a ban with banExpiresIn ends by itself", async () => {
    const { client: admin } = await signedInAdmin();
    const member = await signedInUser();
    expect((await admin.admin.banUser({ userId: member.id, banExpiresIn: 1 })).error).toBeNull();
    expect((await member.client.signIn.email({ email: member.email, password: PASSWORD })).error).toMatchObject({ code: "BANNED_USER" });
    const later = await eventually(() => member.client.signIn.email({ email: member.email, password: PASSWORD }), (r) => r.error === null, 10_000);
    expect(later.error).toBeNull();
    // Cleared at that sign-in.
    expect(truthy((await userRow(member.id)).banned)).toBe(false);
  });

  it("lists and revokes a user's sessions, sets their password, and removes them", async () => {
    const { client: admin } = await signedInAdmin();
    const member = await signedInUser();
    const other = officialClient().client;
    expect((await other.signIn.email({ email: member.email, password: PASSWORD })).error).toBeNull();
    const listed = await admin.admin.listUserSessions({ userId: member.id });
    expect(listed.data?.sessions).toHaveLength(2);
    const token = listed.data!.sessions[0].token;
    expect((await admin.admin.revokeUserSession({ sessionToken: token })).data).toEqual({ success: true });
    expect((await admin.admin.listUserSessions({ userId: member.id })).data?.sessions).toHaveLength(1);
    expect((await admin.admin.revokeUserSessions({ userId: member.id })).data).toEqual({ success: true });
    expect((await member.client.getSession()).data).toBeNull();
    expect((await other.getSession()).data).toBeNull();

    expect((await admin.admin.setUserPassword({ userId: member.id, newPassword: "short" })).error).toMatchObject({ code: "PASSWORD_TOO_SHORT" });
    expect((await admin.admin.setUserPassword({ userId: member.id, newPassword: "a brand new passphrase" })).data).toEqual({ status: true });
    expect((await member.client.signIn.email({ email: member.email, password: "a brand new passphrase" })).error).toBeNull();

    expect((await admin.admin.removeUser({ userId: member.id })).data).toEqual({ success: true });
    expect(await count(server.database, "user", `"id" = ?`, [member.id])).toBe(0);
    expect((await member.client.getSession()).data).toBeNull();
  });

  it("an admin cannot ban, remove or demote themselves, nor impersonate another admin", async () => {
    const { client: admin, id } = await signedInAdmin();
    expect((await admin.admin.banUser({ userId: id })).error).toMatchObject({ status: 400, code: "YOU_CANNOT_BAN_YOURSELF" });
    expect((await admin.admin.updateUser({ userId: id, data: { banned: true } })).error).toMatchObject({ code: "YOU_CANNOT_BAN_YOURSELF" });
    expect((await admin.admin.removeUser({ userId: id })).error).toMatchObject({ status: 400, code: "YOU_CANNOT_REMOVE_YOURSELF" });
    expect((await admin.admin.setRole({ userId: id, role: "user" })).error).toMatchObject({ status: 400, code: "YOU_CANNOT_DEMOTE_YOURSELF" });
    const colleague = await admin.admin.createUser({ email: uniqueEmail("colleague"), password: PASSWORD, name: "Colleague", role: "admin" });
    expect((await admin.admin.impersonateUser({ userId: colleague.data!.user.id })).error).toMatchObject({ status: 403, code: "YOU_CANNOT_IMPERSONATE_ADMINS" });
    expect((await admin.admin.impersonateUser({ userId: id })).error).toMatchObject({ code: "YOU_CANNOT_IMPERSONATE_ADMINS" });
    const row = await userRow(id);
    expect([row.role, truthy(row.banned)]).toEqual(["admin", false]);
  });

  it("impersonation: a session as the user, refused account changes, and the admin's own session back on stop", async () => {
    const { client: admin, id: adminId } = await signedInAdmin();
    const member = await signedInUser("Impersonated Person");
    const started = await admin.admin.impersonateUser({ userId: member.id });
    expect(started.error).toBeNull();
    expect(started.data?.session).toMatchObject({ userId: member.id, impersonatedBy: adminId });
    const asMember = await admin.getSession();
    expect(asMember.data?.user.id).toBe(member.id);
    expect((asMember.data?.session as { impersonatedBy?: string }).impersonatedBy).toBe(adminId);
    const expiresIn = new Date(asMember.data!.session.expiresAt).getTime() - Date.now();
    expect(expiresIn).toBeLessThanOrEqual(600_000);

    // What an impersonation session may not do, each refused with the same clear error and nothing changed.
    const refusedCalls = [
      admin.$fetch("/change-password", { method: "POST", body: { currentPassword: PASSWORD, newPassword: "another passphrase" } }),
      admin.$fetch("/change-email", { method: "POST", body: { newEmail: uniqueEmail("moved") } }),
      admin.$fetch("/delete-user", { method: "POST", body: { password: PASSWORD } }),
      admin.$fetch("/two-factor/enable", { method: "POST", body: { password: PASSWORD } }),
      admin.$fetch("/passkey/generate-register-options", { method: "GET" }),
    ];
    for (const answer of await Promise.all(refusedCalls)) {
      expect(answer.error).toMatchObject({ status: 403, code: "NOT_ALLOWED_WHILE_IMPERSONATING" });
    }
    expect((await member.client.signIn.email({ email: member.email, password: PASSWORD })).error).toBeNull();
    // The owner's own list does not show the admin's session (as Better Auth's plugin hides it).
    expect((await member.client.listSessions()).data?.every((s) => !(s as { impersonatedBy?: string }).impersonatedBy)).toBe(true);
    // Nor may the impersonation session use the admin API.
    expect((await admin.admin.listUsers({ query: {} })).error).toMatchObject({ status: 403, code: "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS" });

    const stopped = await admin.admin.stopImpersonating();
    expect(stopped.error).toBeNull();
    expect(stopped.data?.user.id).toBe(adminId);
    expect((await admin.getSession()).data?.user.id).toBe(adminId);
    expect((await admin.admin.stopImpersonating()).error).toMatchObject({ status: 400, code: "YOU_ARE_NOT_IMPERSONATING_ANYONE" });
    for (const userId of [member.id, adminId]) {
      expect(await count(server.database, "securityEvent", `"userId" = ? AND "type" = 'impersonation_started' AND "actorUserId" = ?`, [userId, adminId])).toBeGreaterThanOrEqual(1);
      expect(await count(server.database, "securityEvent", `"userId" = ? AND "type" = 'impersonation_stopped' AND "actorUserId" = ?`, [userId, adminId])).toBeGreaterThanOrEqual(1);
    }
    expect(await count(server.database, "session", `"impersonatedBy" IS NOT NULL AND "userId" = ?`, [member.id])).toBe(0);
  });
});

describe("refusals", () => {
  const calls = (client: ReturnType<typeof officialClient>["client"], userId: string) => ({
    "create-user": () => client.admin.createUser({ email: uniqueEmail("nope"), password: PASSWORD, name: "Nope" }),
    "list-users": () => client.admin.listUsers({ query: {} }),
    "get-user": () => client.admin.getUser({ query: { id: userId } }),
    "update-user": () => client.admin.updateUser({ userId, data: { name: "Hacked" } }),
    "set-role": () => client.admin.setRole({ userId, role: "admin" }),
    "ban-user": () => client.admin.banUser({ userId }),
    "unban-user": () => client.admin.unbanUser({ userId }),
    "list-user-sessions": () => client.admin.listUserSessions({ userId }),
    "revoke-user-session": () => client.admin.revokeUserSession({ sessionToken: "whatever" }),
    "revoke-user-sessions": () => client.admin.revokeUserSessions({ userId }),
    "impersonate-user": () => client.admin.impersonateUser({ userId }),
    "remove-user": () => client.admin.removeUser({ userId }),
    "set-user-password": () => client.admin.setUserPassword({ userId, newPassword: "a brand new passphrase" }),
  });
  const EXPECTED_CODES: Record<string, string> = {
    "create-user": "YOU_ARE_NOT_ALLOWED_TO_CREATE_USERS",
    "list-users": "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS",
    "get-user": "YOU_ARE_NOT_ALLOWED_TO_GET_USER",
    "update-user": "YOU_ARE_NOT_ALLOWED_TO_UPDATE_USERS",
    "set-role": "YOU_ARE_NOT_ALLOWED_TO_CHANGE_USERS_ROLE",
    "ban-user": "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS",
    "unban-user": "YOU_ARE_NOT_ALLOWED_TO_BAN_USERS",
    "list-user-sessions": "YOU_ARE_NOT_ALLOWED_TO_LIST_USERS_SESSIONS",
    "revoke-user-session": "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS",
    "revoke-user-sessions": "YOU_ARE_NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS",
    "impersonate-user": "YOU_ARE_NOT_ALLOWED_TO_IMPERSONATE_USERS",
    "remove-user": "YOU_ARE_NOT_ALLOWED_TO_DELETE_USERS",
    "set-user-password": "YOU_ARE_NOT_ALLOWED_TO_SET_USERS_PASSWORD",
  };

  it("every call by a non-admin is refused with Better Auth's code, 403, and changes nothing", async () => {
    const victim = await signedInUser("Victim");
    const intruder = await signedInUser("Intruder");
    const before = await query(server.database, `SELECT "name", "role", "banned" FROM "user" WHERE "id" = ?`, [victim.id]);
    const users = await count(server.database, "user");
    for (const [name, call] of Object.entries(calls(intruder.client, victim.id))) {
      expect((await call()).error, name).toMatchObject({ status: 403, code: EXPECTED_CODES[name] });
    }
    expect((await intruder.client.admin.hasPermission({ permissions: { user: ["list"] } })).data).toEqual({ error: null, success: false });
    expect(await query(server.database, `SELECT "name", "role", "banned" FROM "user" WHERE "id" = ?`, [victim.id])).toEqual(before);
    expect(await count(server.database, "user")).toBe(users);
    expect((await victim.client.getSession()).data?.user.id).toBe(victim.id);
    expect((await intruder.client.admin.stopImpersonating()).error).toMatchObject({ status: 400, code: "YOU_ARE_NOT_IMPERSONATING_ANYONE" });
  });

  it("every call signed out is refused with 401", async () => {
    const victim = await signedInUser("Victim");
    const { client } = officialClient();
    for (const [name, call] of Object.entries(calls(client, victim.id))) {
      expect((await call()).error, name).toMatchObject({ status: 401 });
    }
    expect((await client.admin.hasPermission({ permissions: { user: ["list"] } })).error).toMatchObject({ status: 401 });
    expect((await client.admin.stopImpersonating()).error).toMatchObject({ status: 401 });
    expect(await count(server.database, "user", `"id" = ?`, [victim.id])).toBe(1);
  });

  it("hostile bodies and queries from an admin get a 4xx, never a 500", async () => {
    const { jar } = await signedInAdmin();
    const api = new ApiClient(server.baseUrl);
    for (const [name, value] of jar.cookies) api.cookies.set(name, value);
    const hostile: Array<[string, unknown]> = [
      ["/api/auth/admin/create-user", { email: "not an address", name: "x", password: PASSWORD }],
      ["/api/auth/admin/create-user", { email: uniqueEmail(), name: "x", role: [1, 2] }],
      ["/api/auth/admin/create-user", { email: uniqueEmail(), name: "x", data: { role: { $ne: 1 } } }],
      ["/api/auth/admin/update-user", { userId: "x", data: { email: 5 } }],
      ["/api/auth/admin/update-user", { userId: "x", data: { banExpires: "tomorrow" } }],
      ["/api/auth/admin/update-user", { userId: "x", data: { __proto__: { admin: true }, constructor: 1 } }],
      ["/api/auth/admin/update-user", { userId: "nobody", data: { name: "x" } }],
      ["/api/auth/admin/set-role", { userId: "x", role: [] }],
      ["/api/auth/admin/ban-user", { userId: "x", banExpiresIn: -5 }],
      ["/api/auth/admin/ban-user", { userId: "x", banExpiresIn: 1e30 }],
      ["/api/auth/admin/ban-user", { userId: { id: 1 } }],
      ["/api/auth/admin/unban-user", { userId: "" }],
      ["/api/auth/admin/remove-user", { userId: "nobody" }],
      ["/api/auth/admin/impersonate-user", { userId: "nobody" }],
      ["/api/auth/admin/set-user-password", { userId: "x", newPassword: "" }],
      ["/api/auth/admin/has-permission", { permissions: "all" }],
      ["/api/auth/admin/has-permission", { permission: {}, permissions: {} }],
      ["/api/auth/admin/list-user-sessions", []],
    ];
    for (const [path, body] of hostile) {
      const answer = await api.post(path, body);
      expect([path, answer.status]).toEqual([path, expect.any(Number)]);
      expect(answer.status, `${path} ${JSON.stringify(body)}: ${answer.text}`).toBeGreaterThanOrEqual(400);
      expect(answer.status, `${path} ${JSON.stringify(body)}: ${answer.text}`).toBeLessThan(500);
    }
    const queries = ["limit=-1", "limit=abc", "offset=99999999999999", "searchField=password&searchValue=a", "filterField=banned&filterValue=maybe", "sortBy=__proto__", "filterOperator=regex&filterValue=x", "searchValue=%25%27%22", "filterValue=a&filterValue=b&filterField=email&filterOperator=in"];
    for (const q of queries) {
      const answer = await api.get(`/api/auth/admin/list-users?${q}`);
      expect(answer.status, `${q}: ${answer.text}`).toBeLessThan(500);
    }
    expect((await api.get("/api/auth/admin/get-user")).status).toBe(400);
  });
});

describe("AUTH_ADMIN_EMAILS and the command line", () => {
  it("does not promote an unverified address", async () => {
    const { client } = officialClient();
    // Listed in AUTH_ADMIN_EMAILS, but nobody proved the inbox: anyone can sign up with it.
    expect((await client.signUp.email({ name: "Pretender", email: "other@example.com", password: PASSWORD })).error).toBeNull();
    expect((await client.signIn.email({ email: "other@example.com", password: PASSWORD })).error).toBeNull();
    expect(((await client.getSession()).data?.user as { role?: string }).role).toBe("user");
    expect((await client.admin.listUsers({ query: {} })).error).toMatchObject({ status: 403 });
  });

  // The command's words, output and exit codes, once (each run boots the built app); the role it writes is the
  // same Prisma update the API tests drive on both databases.
  it.runIf(databaseKindUnderTest() === "sqlite")("`npm run admin -- grant|revoke EMAIL` changes the role, warns when unverified, and fails for an unknown address", async () => {
    const run = (...args: string[]) =>
      promisify(execFile)(process.execPath, [path.join(import.meta.dirname, "..", "..", "scripts", "admin.mjs"), ...args], {
        env: { PATH: process.env.PATH, NODE_ENV: "production", DATABASE_URL: server.database.url, AUTH_SECRET: TEST_SECRET, BASE_URL: "http://localhost:3999" } as NodeJS.ProcessEnv,
      }).then(
        ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
        (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr }),
      );
    const member = await signUp(new ApiClient(server.baseUrl), { email: uniqueEmail("cli") });
    const granted = await run("grant", member.email.toUpperCase());
    expect(granted.code).toBe(0);
    expect(granted.stdout).toContain(`${member.email} is now an admin`);
    expect(granted.stderr).toContain("not verified");
    expect((await userRow(member.user.id)).role).toBe("admin");
    expect((await run("grant", member.email)).stdout).toContain("already an admin");
    const revoked = await run("revoke", member.email);
    expect(revoked.stdout).toContain("is no longer an admin");
    expect((await userRow(member.user.id)).role).toBe("user");
    const unknown = await run("grant", "nobody-at-all@example.com");
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain("No account has the address");
    expect((await run("promote")).code).toBe(2);
  }, 60_000);
});

describe.runIf(databaseKindUnderTest() === "postgres")("on PostgreSQL", () => {
  it("two admins banning and unbanning at once leave a consistent row", async () => {
    const first = await signedInAdmin();
    const second = officialClient().client;
    expect((await second.signIn.email({ email: ADMIN_EMAIL, password: PASSWORD })).error).toBeNull();
    const member = await signedInUser();
    for (let round = 0; round < 5; round++) {
      await Promise.all([
        first.client.admin.banUser({ userId: member.id, banReason: `round ${round}`, banExpiresIn: 3600 }),
        second.admin.unbanUser({ userId: member.id }),
        first.client.admin.unbanUser({ userId: member.id }),
        second.admin.banUser({ userId: member.id, banReason: `again ${round}` }),
      ]);
      const row = await userRow(member.id);
      if (truthy(row.banned)) expect(row.banReason).toMatch(/^(round|again) /);
      else expect([row.banReason, row.banExpires]).toEqual([null, null]);
    }
  });

  it("a ban signs the user out on a second instance at once", async () => {
    const second = await startServer({ database: server.database, env: { AUTH_EMAIL_VERIFICATION: "off" } });
    try {
      const { client: admin } = await signedInAdmin();
      const member = await signedInUser();
      const elsewhere = new ApiClient(second.baseUrl);
      for (const [name, value] of member.jar.cookies) elsewhere.cookies.set(name, value);
      // Warm the second instance's session cache: the ban must reach it through the change feed.
      expect((await elsewhere.get("/api/auth/get-session")).body?.user.id).toBe(member.id);
      expect((await admin.admin.banUser({ userId: member.id })).error).toBeNull();
      // The feed is NOTIFY, delivered a moment after the commit: a bounded wait, no timing assertion. The bound is
      // what a loaded machine may need, and far below the cache's 60 s safety net, so the sign-out came by the feed.
      const after = await eventually(() => elsewhere.get("/api/auth/get-session"), (r) => r.body === null, 15_000);
      expect(after.body).toBeNull();
    } finally {
      await second.stop();
    }
  }, 90_000);
});

describe("the console's accounts list (issue 41, ADR 066)", () => {
  it("pages in the one pager's words: where the rows sit, Older then Newer, newest first", async () => {
    const { client: admin, jar } = await signedInAdmin();
    for (let i = 0; i < 26; i++) expect((await admin.admin.createUser({ email: uniqueEmail(`paged-${i}`), password: PASSWORD, name: `Paged ${i}` })).error).toBeNull();
    const first = await jar.get("/admin");
    expect(first.status).toBe(200);
    const total = /data-testid="admin-accounts-shown">Accounts 1–25 of (\d+)</.exec(first.text)?.[1];
    expect(Number(total)).toBeGreaterThanOrEqual(27);
    expect(first.text).toMatch(/<a [^>]*rel="next"[^>]*>Older<span class="visually-hidden"> accounts<\/span><\/a>/);
    expect(first.text).not.toContain('rel="prev"');
    expect(first.text).toContain('href="/admin?page=2"');
    const second = await jar.get("/admin?page=2");
    expect(second.text).toContain(`>Accounts 26–${Math.min(Number(total), 50)} of ${total}<`);
    expect(second.text).toMatch(/<a [^>]*rel="prev"[^>]*>Newer<span class="visually-hidden"> accounts<\/span><\/a>/);
    expect(second.text).toContain('href="/admin?page=1"');
  });
});
