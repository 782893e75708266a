// Issue 38, items 1, 3 and 4 (ADR 055): what the OpenID provider issued to a person — access and refresh tokens,
// grants, and the consents remembered for them — ends with every revocation that should end it: the claim on the
// first proof of an inbox, "This wasn't me", every ban (also through /admin/update-user, and an unban does not
// bring it back), every deletion. Introspection asks whether the account may still be served, as refresh and
// userinfo do. And giving an application offline_access is a new way in: it needs a recent sign-in, and the
// owner is mailed. Driven over HTTP with a certified relying party (openid-client), on both databases.
import * as oidc from "openid-client";
import { describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, sessionShows, signUp, uniqueEmail } from "../support/client";
import { mailCount, nextMail } from "../support/mail";
import type { Mailbox } from "../support/mailbox";
import { applicationSignIn, authorizationRequest, browse, registerClient, relyingParty } from "../support/oidc-clients";
import { useServerWithMailbox, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

let server: TestServer;
let mailbox: Mailbox;
useServerWithMailbox({}, (running) => ({ server, mailbox } = running));

/** What an application asks for to keep access while the person is away: a refresh token. */
const LASTING = { scope: "openid email offline_access", prompt: "consent" };

/** Someone signed in (a browser), with an application holding lasting access to their account. */
async function personWithApplication(email = uniqueEmail("app-user"), password = PASSWORD) {
  const app = await registerClient(server.database, { name: "Notes App" });
  const config = await relyingParty(app, server.baseUrl);
  const browser = new ApiClient(server.baseUrl);
  const { user } = await signUp(browser, { email, password });
  const tokens = await applicationSignIn(config, app, browser, LASTING);
  expect(tokens.refresh_token, "offline_access gives a refresh token").toBeTruthy();
  expect((await oidc.tokenIntrospection(config, tokens.access_token)).active).toBe(true);
  return { app, config, browser, user: user as { id: string; email: string }, email, tokens };
}

type WithApplication = Awaited<ReturnType<typeof personWithApplication>>;

/** Nothing the application held still works, and nothing of the person's is left in the provider's storage. */
async function expectApplicationLockedOut({ config, tokens, user }: WithApplication) {
  expect((await oidc.tokenIntrospection(config, tokens.access_token)).active, "introspection says inactive").toBe(false);
  await expect(oidc.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  expect(await count(server.database, "oidcModel", `"accountId" = ?`, [user.id])).toBe(0);
}

const consentsOf = (userId: string) => count(server.database, "oidcConsent", `"userId" = ?`, [userId]);

/** An admin's browser: the role set in the database, then a fresh sign-in so the session reads it. */
async function admin() {
  const browser = new ApiClient(server.baseUrl);
  const { user, email } = await signUp(browser);
  await query(server.database, `UPDATE "user" SET "role" = 'admin' WHERE "id" = ?`, [user.id]);
  const signedIn = await browser.post("/api/auth/sign-in/email", { email, password: PASSWORD });
  expect(signedIn.status, signedIn.text).toBe(200);
  return browser;
}

describe("what applications hold ends with the revocation", () => {
  it("a claim: the squatter's refresh token, access token and consent end when the owner proves the inbox", async () => {
    // The squatter registers the owner's address and lets an application in with offline_access.
    const squatted = await personWithApplication(uniqueEmail("claimed"), "the squatter's password");
    expect(await consentsOf(squatted.user.id)).toBe(1);
    // The owner proves the inbox with a sign-in code, from a browser of their own.
    const seen = mailCount(mailbox, squatted.email, /sign-in code/);
    expect((await new ApiClient(server.baseUrl).post("/api/auth/email-otp/send-verification-otp", { email: squatted.email, type: "sign-in" })).status).toBe(200);
    const code = (await nextMail(mailbox, squatted.email, /sign-in code/, seen)).text.match(/Your code: (\d{6})/)![1];
    const owner = new ApiClient(server.baseUrl);
    const claimed = await owner.post("/api/auth/sign-in/email-otp", { email: squatted.email, otp: code });
    expect(claimed.status, claimed.text).toBe(200);
    expect(claimed.body.user.emailVerified).toBe(true);
    await expectApplicationLockedOut(squatted);
    expect(await consentsOf(squatted.user.id), "the squatter's consent is forgotten").toBe(0);
  });

  it("\"This wasn't me\": applications' tokens and the consents given to them end with every session", async () => {
    const someone = await personWithApplication();
    const ended = await someone.browser.post("/api/auth/end-all-sessions", {});
    expect(ended.status, ended.text).toBe(200);
    await expectApplicationLockedOut(someone);
    expect(await consentsOf(someone.user.id)).toBe(0);
  });

  it("a password reset (signing out everywhere, the default) ends them too", async () => {
    const someone = await personWithApplication();
    const seen = mailCount(mailbox, someone.email, /Reset your password/);
    expect((await new ApiClient(server.baseUrl).post("/api/auth/request-password-reset", { email: someone.email })).status).toBe(200);
    const link = (await nextMail(mailbox, someone.email, /Reset your password/, seen)).links.find((l) => l.includes("/reset-password/"))!;
    const token = new URL(link).pathname.split("/").at(-1)!;
    const reset = await new ApiClient(server.baseUrl).post("/api/auth/reset-password", { token, newPassword: "a brand new password" });
    expect(reset.status, reset.text).toBe(200);
    await expectApplicationLockedOut(someone);
    expect(await consentsOf(someone.user.id)).toBe(0);
  });

  it("a ban through /admin/update-user ends them, and lifting the ban does not bring them back", async () => {
    const someone = await personWithApplication();
    const adminBrowser = await admin();
    const banned = await adminBrowser.post("/api/auth/admin/update-user", { userId: someone.user.id, data: { banned: true, banReason: "testing" } });
    expect(banned.status, banned.text).toBe(200);
    await expectApplicationLockedOut(someone);
    const lifted = await adminBrowser.post("/api/auth/admin/update-user", { userId: someone.user.id, data: { banned: false } });
    expect(lifted.status, lifted.text).toBe(200);
    expect((await oidc.tokenIntrospection(someone.config, someone.tokens.access_token)).active).toBe(false);
    await expect(oidc.refreshTokenGrant(someone.config, someone.tokens.refresh_token!)).rejects.toMatchObject({ error: "invalid_grant" });
  });

  it("delete-user leaves nothing active at introspection", async () => {
    const someone = await personWithApplication();
    const deleted = await someone.browser.post("/api/auth/delete-user", { password: PASSWORD });
    expect(deleted.status, deleted.text).toBe(200);
    await expectApplicationLockedOut(someone);
  });

  it("/admin/remove-user leaves nothing active at introspection", async () => {
    const someone = await personWithApplication();
    const removed = await (await admin()).post("/api/auth/admin/remove-user", { userId: someone.user.id });
    expect(removed.status, removed.text).toBe(200);
    await expectApplicationLockedOut(someone);
  });

  it("introspection asks whether the account may still be served: banned or deleted by hand, its live tokens read inactive", async () => {
    const banned = await personWithApplication();
    await query(server.database, `UPDATE "user" SET "banned" = (1=1) WHERE "id" = ?`, [banned.user.id]);
    expect((await oidc.tokenIntrospection(banned.config, banned.tokens.access_token)).active).toBe(false);
    const deleted = await personWithApplication();
    await query(server.database, `DELETE FROM "user" WHERE "id" = ?`, [deleted.user.id]);
    expect(await count(server.database, "oidcModel", `"accountId" = ?`, [deleted.user.id]), "tokens left in storage").toBeGreaterThan(0);
    expect((await oidc.tokenIntrospection(deleted.config, deleted.tokens.access_token)).active).toBe(false);
  });
});

describe("offline_access is a new way in (ADR 030)", () => {
  it("without a recent sign-in the person is sent to confirm it's them; after it, the owner is mailed", async () => {
    const app = await registerClient(server.database, { name: "Calendar Sync" });
    const config = await relyingParty(app, server.baseUrl);
    const browser = new ApiClient(server.baseUrl);
    const { user, email } = await signUp(browser);
    // The sign-in happened eleven minutes ago (the window is ten).
    const longAgo = new Date(Date.now() - 11 * 60_000);
    await query(server.database, `UPDATE "session" SET "createdAt" = ? WHERE "userId" = ?`, [server.database.kind === "sqlite" ? longAgo.getTime() : longAgo, user.id]);
    await sessionShows(browser, (read) => Date.parse(read?.session?.createdAt) < Date.now() - 10 * 60_000);

    // Without offline_access nothing new is given: the consent page asks as usual.
    const plain = await browse(browser, (await authorizationRequest(config, app)).url.href);
    expect(plain.url.pathname).toMatch(/^\/oauth2\/interaction\//);
    expect(plain.response?.status).toBe(200);

    const lasting = await browse(browser, (await authorizationRequest(config, app, LASTING)).url.href);
    expect(lasting.url.pathname).toBe("/reverify");
    expect(lasting.url.searchParams.get("redirectTo")).toMatch(/^\/oauth2\/interaction\//);
    expect(await consentsOf(user.id)).toBe(0);

    // Confirming it's them (issue 39 §4), the same request goes on to the consent page and the application in.
    const seen = mailCount(mailbox, email, /lasting access/);
    expect((await browser.post("/api/auth/reverify/password", { password: PASSWORD })).status).toBe(200);
    const tokens = await applicationSignIn(config, app, browser, LASTING);
    expect(tokens.refresh_token).toBeTruthy();
    const notice = await nextMail(mailbox, email, /lasting access/, seen);
    expect(notice.subject).toContain("An application was given lasting access to your account");
    expect(notice.text).toContain("Calendar Sync was allowed to keep using your account");
  });

  it("a consent page shown in time but answered after the window asks to confirm it's you, and gives nothing", async () => {
    const app = await registerClient(server.database, { name: "Late Answer" });
    const config = await relyingParty(app, server.baseUrl);
    const browser = new ApiClient(server.baseUrl);
    const { user } = await signUp(browser);
    const page = await browse(browser, (await authorizationRequest(config, app, LASTING)).url.href);
    expect(page.url.pathname).toMatch(/^\/oauth2\/interaction\//);
    const longAgo = new Date(Date.now() - 11 * 60_000);
    await query(server.database, `UPDATE "session" SET "createdAt" = ? WHERE "userId" = ?`, [server.database.kind === "sqlite" ? longAgo.getTime() : longAgo, user.id]);
    await sessionShows(browser, (read) => Date.parse(read?.session?.createdAt) < Date.now() - 10 * 60_000);
    const answered = await browser.request("POST", page.url.pathname, {
      rawBody: new URLSearchParams({ intent: "allow" }).toString(),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    const to = new URL(answered.headers.get("location") ?? "/", server.baseUrl);
    expect(to.pathname).toBe("/reverify");
    expect(await consentsOf(user.id)).toBe(0);
  });
});
