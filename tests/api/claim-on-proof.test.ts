// Claim on proof (issue 24 item 2, docs/decisions/028-claim-on-proof.md): somebody registers an address they do
// not own and sets up ways in (a password, a passkey, a linked provider identity, two-factor, sessions); the first
// time the owner proves the inbox, by any path, all of it ends and the owner starts clean. The one exception is
// the person who set them up proving the inbox in the browser they signed up in. A verified user's change of
// address loses nothing. (A provider identity whose address the provider does not vouch for, which starts an
// unproven account of its own and joins none: social-unvouched.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, eventually, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { useServerWithProvider, type TestSso } from "../support/identity-provider";
import { COOKIE, setCookie } from "../support/cookies";
import { actionLink, type Mailbox } from "../support/mailbox";
import { mailCount, nextMail } from "../support/mail";
import { startServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";
import { enableTwoFactor } from "../support/two-factor";
import { SoftAuthenticator } from "../support/webauthn";

let sso: TestSso;
let mailbox: Mailbox;
let server: TestServer;
/** A second instance on the same database: its session cache must hear the claim too (ADR 024). */
let second: TestServer;

const ENV = { AUTH_TRUSTED_PROVIDERS: "oidc" };
useServerWithProvider(ENV, (running) => ({ server, mailbox, sso } = running));
beforeAll(async () => {
  second = await startServer({ env: { SMTP_URL: mailbox.url, ...sso.env, ...ENV }, database: server.database });
});
afterAll(async () => {
  await second?.stop();
});

const VERIFY = /Verify your email address/;
const browser = (target = server) => new ApiClient(target.baseUrl);
const truthy = () => (server.database.kind === "sqlite" ? 1 : true);

/** Signs in (or, from a signed-in browser, links) through the mock provider as `subject`; returns the callback's answer. */
async function throughProvider(client: ApiClient, subject: Record<string, unknown>, path = "/api/auth/sign-in/social") {
  const { start, callback } = await sso.approve(client, path, subject);
  expect(start.status, start.text).toBe(200);
  return client.get(callback!);
}

async function registerPasskey(client: ApiClient, authenticator: SoftAuthenticator) {
  const options = await client.get("/api/auth/passkey/generate-register-options");
  expect(options.status, options.text).toBe(200);
  const verified = await client.post("/api/auth/passkey/verify-registration", { response: authenticator.register(options.body).response });
  expect(verified.status, verified.text).toBe(200);
}

async function passkeySignIn(authenticator: SoftAuthenticator, client = browser()) {
  const options = await client.post("/api/auth/passkey/generate-authenticate-options", {});
  return client.post("/api/auth/passkey/verify-authentication", { response: authenticator.authenticate(options.body) });
}

/** The mailed 6-digit code of the newest mail to `email` matching `subject`, after asking for it. */
async function mailedCode(email: string, type: "sign-in" | "email-verification" | "forget-password") {
  const subject = { "sign-in": /sign-in code/, "email-verification": /verification code/, "forget-password": /password reset code/ }[type];
  const seen = mailCount(mailbox, email, subject);
  expect((await browser().post("/api/auth/email-otp/send-verification-otp", { email, type })).status).toBe(200);
  return (await nextMail(mailbox, email, subject, seen)).text.match(/Your code: (\d{6})/)![1];
}

async function mailedResetToken(email: string) {
  const seen = mailCount(mailbox, email, /Reset your password/);
  expect((await browser().post("/api/auth/request-password-reset", { email })).status).toBe(200);
  return new URL(actionLink(await nextMail(mailbox, email, /Reset your password/, seen))).pathname.split("/").at(-1)!;
}

/**
 * Somebody registers `email` without owning it, then sets up every way in they can: the password, a passkey, a
 * provider identity of their own (whose provider does not vouch for the address), two-factor (trusting their
 * device), and a second session elsewhere, on the second instance.
 */
async function squat() {
  const client = browser();
  const email = uniqueEmail("victim");
  const { user } = await signUp(client, { email, password: "the squatter's password" });
  const authenticator = new SoftAuthenticator(server.origin);
  await registerPasskey(client, authenticator);
  const identity = { sub: `squatter-${email}`, email, email_verified: false, name: "Squatter" };
  const linked = await throughProvider(client, identity, "/api/auth/link-social");
  expect(linked.headers.get("location")).toBe(`${server.baseUrl}/account`);
  await enableTwoFactor(client, new Set(), "the squatter's password");
  // A second session (the passkey signs in past two-factor), used on the second instance: the passkey's origin
  // is the first instance's, the session works on both.
  const signingIn = browser();
  const other = await passkeySignIn(authenticator, signingIn);
  expect(other.status, other.text).toBe(200);
  const elsewhere = browser(second);
  for (const [name, value] of signingIn.cookies) elsewhere.cookies.set(name, value);
  expect((await elsewhere.get("/api/auth/get-session")).body.user.id).toBe(user.id);
  expect(await count(server.database, "account", `"userId" = ?`, [user.id])).toBe(2); // password + provider
  const verificationLink = actionLink(await mailbox.waitFor(email, VERIFY));
  return { client, elsewhere, email, user, authenticator, identity, verificationLink };
}

type Squat = Awaited<ReturnType<typeof squat>>;

/**
 * The person confirming a mailed link outside the account's own browser (issue 37): POST /verify-email with the
 * link's token and its callbackURL, as the link's page does. Opening the link there changes nothing.
 */
function confirmLink(client: ApiClient, link: string) {
  const url = new URL(link);
  const callbackURL = url.searchParams.get("callbackURL");
  return client.post("/api/auth/verify-email", { token: url.searchParams.get("token") ?? "", ...(callbackURL === null ? {} : { callbackURL }) });
}

/** An organization invites `email`; the link (with its secret) reaches that inbox. */
async function invitation(email: string) {
  const admin = browser();
  const adminUser = await signUp(admin);
  await query(server.database, `UPDATE "user" SET "emailVerified" = ? WHERE "id" = ?`, [truthy(), adminUser.user.id]);
  const name = `Claim Co ${Math.random().toString(36).slice(2, 8)}`;
  const created = await admin.post("/api/auth/organization/create", { name, slug: `claim-${Math.random().toString(36).slice(2, 10)}` });
  expect(created.status, created.text).toBe(200);
  const invited = await admin.post("/api/auth/organization/invite-member", { email, role: "admin", organizationId: created.body.id });
  expect(invited.status, invited.text).toBe(200);
  const link = new URL(actionLink(await mailbox.waitFor(email, /invited to join an organization/)));
  return { invited, link };
}

/** Nothing the squatter set up gets in any more, on either instance, and the account is proven and clean. */
async function expectClaimed(squatted: Squat, ownerSessions = 0) {
  const { client, elsewhere, email, user, authenticator, identity } = squatted;
  expect((await client.get("/api/auth/get-session")).body).toBeNull();
  // The second instance hears of the ended sessions through the database's change feed, a moment after the commit.
  expect((await eventually(() => elsewhere.get("/api/auth/get-session"), (read) => read.body === null)).body).toBeNull();
  expect((await browser(second).post("/api/auth/sign-in/email", { email, password: "the squatter's password" })).status).toBe(401);
  expect((await passkeySignIn(authenticator)).status).not.toBe(200);
  const social = await throughProvider(browser(), identity);
  expect(setCookie(social, COOKIE.sessionToken)).toBeUndefined();
  // Its link ended, and an address the provider does not vouch for joins no account (issue 37).
  expect(social.headers.get("location")).toContain("error=account+not+linked");
  const [row] = await query<{ emailVerified: unknown; twoFactorEnabled: unknown; inboxProvenAt: unknown }>(
    server.database,
    `SELECT "emailVerified", "twoFactorEnabled", "inboxProvenAt" FROM "user" WHERE "id" = ?`,
    [user.id],
  );
  expect(Boolean(row.emailVerified)).toBe(true);
  expect(Boolean(row.twoFactorEnabled)).toBe(false);
  expect(row.inboxProvenAt).not.toBeNull();
  expect(await count(server.database, "passkey", `"userId" = ?`, [user.id])).toBe(0);
  expect(await count(server.database, "twoFactor", `"userId" = ?`, [user.id])).toBe(0);
  expect(await count(server.database, "account", `"accountId" = ?`, [identity.sub])).toBe(0);
  expect(await count(server.database, "session", `"userId" = ?`, [user.id])).toBe(ownerSessions);
}

describe("the owner proving the inbox ends everything the squatter set up", () => {
  it("by the verification link (opened, then confirmed by POST /verify-email), and the page says what was removed and offers a new password", async () => {
    const squatted = await squat();
    const owner = browser();
    // Opened in the owner's browser, the link changes nothing yet and goes to its page (issue 37).
    const opened = await owner.get(squatted.verificationLink);
    expect(opened.status).toBe(302);
    expect(opened.headers.get("location")).toMatch(new RegExp(`^${server.baseUrl}/confirm-email\\?token=`));
    expect((await squatted.client.get("/api/auth/get-session")).body.user.id).toBe(squatted.user.id);
    expect(await count(server.database, "account", `"userId" = ?`, [squatted.user.id])).toBe(2);
    const confirmed = await confirmLink(owner, squatted.verificationLink);
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect(setCookie(confirmed, COOKIE.sessionToken)).toBeUndefined();
    await expectClaimed(squatted);
    const page = await owner.get("/email-verified");
    expect(page.text).toContain("had not been confirmed before");
    expect(page.text).toContain("the password, 1 passkey, two-factor authentication, the Test SSO sign-in and 2 signed-in sessions");
    expect(page.text).toContain('href="/forgot-password"');
  });

  it("by POST /email-otp/verify-email", async () => {
    const squatted = await squat();
    const code = await mailedCode(squatted.email, "email-verification");
    const response = await browser().post("/api/auth/email-otp/verify-email", { email: squatted.email, otp: code });
    expect(response.status).toBe(200);
    // Better Auth's shape, nothing added.
    expect(Object.keys(response.body).sort()).toEqual(["status", "token", "user"]);
    expect(response.body.user).toMatchObject({ email: squatted.email, emailVerified: true, twoFactorEnabled: false });
    await expectClaimed(squatted);
  });

  it("by a sign-in code (POST /sign-in/email-otp): the owner's new session is the only one", async () => {
    const squatted = await squat();
    const code = await mailedCode(squatted.email, "sign-in");
    const owner = browser();
    const response = await owner.post("/api/auth/sign-in/email-otp", { email: squatted.email, otp: code });
    expect(response.status).toBe(200);
    expect(Object.keys(response.body).sort()).toEqual(["token", "user"]);
    await expectClaimed(squatted, 1);
    expect((await owner.get("/api/auth/get-session")).body.user.id).toBe(squatted.user.id);
  });

  it("by the reset link (POST /reset-password): only the owner's new password works", async () => {
    const squatted = await squat();
    const token = await mailedResetToken(squatted.email);
    const response = await browser().post("/api/auth/reset-password", { newPassword: "the owner's new password", token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ status: true });
    await expectClaimed(squatted);
    expect(await count(server.database, "account", `"userId" = ?`, [squatted.user.id])).toBe(1);
    expect((await browser(second).post("/api/auth/sign-in/email", { email: squatted.email, password: "the owner's new password" })).status).toBe(200);
  });

  it("by the reset code (POST /email-otp/reset-password)", async () => {
    const squatted = await squat();
    const code = await mailedCode(squatted.email, "forget-password");
    const response = await browser().post("/api/auth/email-otp/reset-password", { email: squatted.email, otp: code, password: "the owner's new password" });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ success: true });
    await expectClaimed(squatted);
    expect((await browser().post("/api/auth/sign-in/email", { email: squatted.email, password: "the owner's new password" })).status).toBe(200);
  });

  it("by a trusted provider vouching for the address: the identity joins a clean account", async () => {
    const squatted = await squat();
    const owner = browser();
    const back = await throughProvider(owner, { sub: `owner-${squatted.email}`, email: squatted.email, email_verified: true, name: "Owner" });
    expect(back.headers.get("location")).toBe(`${server.baseUrl}/account`);
    expect((await owner.get("/api/auth/get-session")).body.user).toMatchObject({ id: squatted.user.id, emailVerified: true });
    await expectClaimed(squatted, 1);
    // The owner's own identity is the account's only way in.
    expect(await count(server.database, "account", `"userId" = ?`, [squatted.user.id])).toBe(1);
  });

  it("by an invitation's link secret: accepting ends every session, the accepting one included", async () => {
    const squatted = await squat();
    const { invited, link } = await invitation(squatted.email);
    // Accepted from a browser that signed in with the account's password, but not the one that signed up.
    const accepting = browser();
    const signedIn = await accepting.post("/api/auth/passkey/generate-authenticate-options", {});
    const passkey = await accepting.post("/api/auth/passkey/verify-authentication", { response: squatted.authenticator.authenticate(signedIn.body) });
    expect(passkey.status, passkey.text).toBe(200);
    const accepted = await accepting.post("/api/auth/organization/accept-invitation", { invitationId: invited.body.id, token: link.searchParams.get("token") });
    expect(accepted.status, accepted.text).toBe(200);
    expect(Object.keys(accepted.body).sort()).toEqual(["invitation", "member"]);
    expect((await accepting.get("/api/auth/get-session")).body).toBeNull();
    await expectClaimed(squatted);
    expect(await count(server.database, "member", `"userId" = ?`, [squatted.user.id])).toBe(1);
  });
});

describe("the exception: the person who set it all up, in the browser they signed up in", () => {
  async function expectKept(squatted: Squat, password = "the squatter's password") {
    const { client, elsewhere, email, user, authenticator } = squatted;
    expect((await client.get("/api/auth/get-session")).body.user).toMatchObject({ id: user.id, emailVerified: true });
    expect((await elsewhere.get("/api/auth/get-session")).body.user.id).toBe(user.id);
    expect((await passkeySignIn(authenticator)).status).toBe(200);
    const withPassword = await browser().post("/api/auth/sign-in/email", { email, password });
    expect(withPassword.status).toBe(200);
    expect(withPassword.body.twoFactorRedirect).toBe(true); // two-factor kept
    expect(await count(server.database, "account", `"userId" = ? AND "providerId" = 'oidc'`, [user.id])).toBe(1);
  }

  it("keeps everything when the verification link is opened there", async () => {
    const squatted = await squat();
    expect((await squatted.client.get(squatted.verificationLink)).status).toBe(302);
    await expectKept(squatted);
  });

  it("keeps everything when the verification code is given there", async () => {
    const squatted = await squat();
    const code = await mailedCode(squatted.email, "email-verification");
    expect((await squatted.client.post("/api/auth/email-otp/verify-email", { email: squatted.email, otp: code })).status).toBe(200);
    await expectKept(squatted);
  });

  it("keeps everything when a browser that proved the password accepts an invitation with the link's secret", async () => {
    const squatted = await squat();
    const { invited, link } = await invitation(squatted.email);
    const signedIn = browser();
    const first = await signedIn.post("/api/auth/sign-in/email", { email: squatted.email, password: "the squatter's password" });
    expect(first.body.twoFactorRedirect).toBe(true); // the password is proven; the second factor is still due
    // Whoever holds the password and reads the inbox set the account up: nothing of theirs ends.
    const viaPasskey = await passkeySignIn(squatted.authenticator, signedIn);
    expect(viaPasskey.status).toBe(200);
    const accepted = await signedIn.post("/api/auth/organization/accept-invitation", { invitationId: invited.body.id, token: link.searchParams.get("token") });
    expect(accepted.status, accepted.text).toBe(200);
    expect((await signedIn.get("/api/auth/get-session")).body.user).toMatchObject({ id: squatted.user.id, emailVerified: true });
    await expectKept(squatted);
  });

  it("keeps everything but the replaced password when the reset link is used there", async () => {
    const squatted = await squat();
    const token = await mailedResetToken(squatted.email);
    expect((await squatted.client.post("/api/auth/reset-password", { newPassword: "a replaced password", token })).status).toBe(200);
    // A reset ends sessions by default (AUTH_REVOKE_SESSIONS_ON_PASSWORD_RESET): only what the reset itself ends.
    expect(await count(server.database, "passkey", `"userId" = ?`, [squatted.user.id])).toBe(1);
    expect(await count(server.database, "twoFactor", `"userId" = ?`, [squatted.user.id])).toBe(1);
    expect(await count(server.database, "account", `"userId" = ? AND "providerId" = 'oidc'`, [squatted.user.id])).toBe(1);
    expect((await passkeySignIn(squatted.authenticator)).status).toBe(200);
  });
});

describe("only a never-proven account is claimed", () => {
  it("a verified user who changes address and verifies the new one from another browser loses nothing", async () => {
    const client = browser();
    const email = uniqueEmail("mover");
    const { user } = await signUp(client, { email });
    expect((await client.get(actionLink(await mailbox.waitFor(email, VERIFY)))).status).toBe(302); // proven
    const authenticator = new SoftAuthenticator(server.origin);
    await registerPasskey(client, authenticator);
    const newEmail = uniqueEmail("moved");
    expect((await client.post("/api/auth/change-email", { newEmail })).status).toBe(200);
    const confirm = actionLink(await mailbox.waitFor(email, /Confirm your new email address/));
    expect((await client.get(confirm)).status).toBe(302);
    const verify = actionLink(await mailbox.waitFor(newEmail, VERIFY));
    // Another browser: no sign-up cookie or session to fall back on, so the link waits for the confirmation.
    const response = await confirmLink(browser(), verify);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe(`${server.baseUrl}/email-verified`);
    expect((await client.get("/api/auth/get-session")).body.user).toMatchObject({ id: user.id, email: newEmail, emailVerified: true });
    expect((await browser().post("/api/auth/sign-in/email", { email: newEmail, password: PASSWORD })).status).toBe(200);
    expect((await passkeySignIn(authenticator)).status).toBe(200);
  });

  it("exactly one of two proofs at once claims: the code sign-in's new session survives a verification link", async () => {
    const squatted = await squat();
    const code = await mailedCode(squatted.email, "sign-in");
    const owner = browser();
    const [signIn, link] = await Promise.all([
      owner.post("/api/auth/sign-in/email-otp", { email: squatted.email, otp: code }),
      confirmLink(browser(), squatted.verificationLink),
    ]);
    expect(signIn.status).toBe(200);
    expect(link.status).toBe(302);
    expect((await owner.get("/api/auth/get-session")).body.user.id).toBe(squatted.user.id);
    await expectClaimed(squatted, 1);
  });
});
