// Two edges of a first proof of the inbox (issue 41, minor items), over HTTP on both databases: an address that
// AUTH_ADMIN_EMAILS names is an admin from the moment it is verified, not from its next sign-in (ADR 049); and a
// banned, never-verified account signing in with an e-mailed code is refused before its inbox is claimed, so its
// password and setup survive for when the ban is lifted (ADR 028); so is one a trusted provider vouches for.
import { describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { mailCount, nextMail } from "../support/mail";
import { actionLink, type Mailbox } from "../support/mailbox";
import { useServerWithProvider, type TestSso } from "../support/identity-provider";
import { type TestServer } from "../support/server";
import { count, query } from "../support/sql";

const ADMIN_EMAIL = uniqueEmail("first-admin");
let mailbox: Mailbox;
let server: TestServer;
let sso: TestSso;

useServerWithProvider({ AUTH_EMAIL_VERIFICATION: "optional", AUTH_ADMIN_EMAILS: ADMIN_EMAIL, AUTH_TRUSTED_PROVIDERS: "oidc" }, (running) => ({ server, mailbox, sso } = running));

const browser = () => new ApiClient(server.baseUrl);
const roleOf = async (id: string) => (await query<{ role: string }>(server.database, `SELECT "role" FROM "user" WHERE "id" = ?`, [id]))[0].role;
const truthy = (value: unknown) => value === true || value === 1 || value === 1n;

describe("AUTH_ADMIN_EMAILS", () => {
  it("promotes the first admin when the address is verified: the same session can open the admin API at once", async () => {
    const client = browser();
    const { user } = await signUp(client, { email: ADMIN_EMAIL });
    expect(await roleOf(user.id)).toBe("user"); // anyone can sign up with any address: unverified, no promotion
    expect((await client.get("/api/auth/admin/list-users")).status).toBe(403);

    // The link, opened in the signed-in browser: verified, and an admin in the same commit, with no new sign-in.
    const verify = await mailbox.waitFor(ADMIN_EMAIL, /Verify/);
    expect((await client.get(actionLink(verify))).status).toBeLessThan(400);
    expect(await roleOf(user.id)).toBe("admin");
    expect((await client.get("/api/auth/get-session")).body.user.role).toBe("admin");
    expect((await client.get("/api/auth/admin/list-users")).status).toBe(200);
    const changes = await query<{ details: string }>(server.database, `SELECT "details" FROM "securityEvent" WHERE "userId" = ? AND "type" = 'role_changed'`, [user.id]);
    expect(changes.map((row) => JSON.parse(row.details))).toEqual([{ from: "user", to: "admin", by: "AUTH_ADMIN_EMAILS" }]);
  });

  it("an address it does not name stays a user when verified", async () => {
    const client = browser();
    const { email, user } = await signUp(client);
    expect((await client.get(actionLink(await mailbox.waitFor(email, /Verify/)))).status).toBeLessThan(400);
    expect(await roleOf(user.id)).toBe("user");
  });
});

/** A never-verified account with a password, banned. */
async function bannedUnverified() {
  const email = uniqueEmail("banned");
  const { user } = await signUp(browser(), { email });
  await query(server.database, `UPDATE "user" SET "banned" = (1=1), "banReason" = 'spam' WHERE "id" = ?`, [user.id]);
  return { email, id: user.id as string };
}

/** Nothing was claimed: the password is there, the address still unverified and never proven. */
async function expectUnclaimed(id: string) {
  const [row] = await query<{ emailVerified: unknown; inboxProvenAt: unknown }>(server.database, `SELECT "emailVerified", "inboxProvenAt" FROM "user" WHERE "id" = ?`, [id]);
  expect(truthy(row.emailVerified)).toBe(false);
  expect(row.inboxProvenAt).toBeNull();
  expect(await count(server.database, "account", `"userId" = ? AND "password" IS NOT NULL`, [id])).toBe(1);
  expect(await count(server.database, "securityEvent", `"userId" = ? AND "type" = 'email_verified'`, [id])).toBe(0);
}

describe("a banned, never-verified account proving its inbox to sign in", () => {
  it("a trusted provider vouching for the address is refused before it claims the account", async () => {
    const { email, id } = await bannedUnverified();
    const client = browser();
    const { start, callback } = await sso.approve(client, "/api/auth/sign-in/social", { sub: `banned-${email}`, email, email_verified: true, name: "Banned" });
    expect(start.status, start.text).toBe(200);
    const back = await client.get(callback!);
    expect(back.headers.get("location")).toMatch(/error=/);
    expect((await client.get("/api/auth/get-session")).body).toBeNull();
    await expectUnclaimed(id);
    expect(await count(server.database, "account", `"userId" = ?`, [id])).toBe(1); // the provider's identity joined nothing
  });

  it("a sign-in code is refused before it claims the account: the password, the setup and the unverified state survive the ban", async () => {
    const { email, id } = await bannedUnverified();
    const user = { id };

    const seen = mailCount(mailbox, email, /sign-in code/);
    expect((await browser().post("/api/auth/email-otp/send-verification-otp", { email, type: "sign-in" })).status).toBe(200);
    const code = (await nextMail(mailbox, email, /sign-in code/, seen)).text.match(/Your code: (\d{6})/)![1];
    const refused = await browser().post("/api/auth/sign-in/email-otp", { email, otp: code });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("BANNED_USER");

    await expectUnclaimed(user.id);

    // The ban lifted, the password the person chose still signs in.
    await query(server.database, `UPDATE "user" SET "banned" = (1=0), "banReason" = NULL WHERE "id" = ?`, [user.id]);
    expect((await browser().post("/api/auth/sign-in/email", { email, password: PASSWORD })).status).toBe(200);
  });
});
