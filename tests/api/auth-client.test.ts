// The project's own typed client (app/client) against the real built server: every group of calls answers
// {data, error} in the server's shapes; failures carry status, statusText, code and message (spec §8); a
// network failure and a 500 become error responses, never throws; retries follow the linear rule; a
// {url, redirect: true} answer navigates (spec §2); the session store follows sign-in, profile and sign-out.
import http from "node:http";
import net from "node:net";
import { describe, expect, it, vi } from "vitest";
import { createAuthClient, type FetchOptions } from "~/client";
import { PASSWORD, uniqueEmail } from "../support/client";
import { browserFetch } from "../support/better-auth";
import { mailCount, nextMail } from "../support/mail";
import type { Mailbox } from "../support/mailbox";
import { useServerWithMailbox, type TestServer } from "../support/server";
import { freshCode } from "../support/two-factor";

let server: TestServer;
let mailbox: Mailbox;
useServerWithMailbox({ AUTH_EMAIL_VERIFICATION: "off" }, (running) => ({ server, mailbox } = running));

/** Our client with a browser's cookie jar and Origin header; redirects are recorded instead of followed. */
function browserClient(fetchOptions: FetchOptions = {}) {
  const { customFetchImpl } = browserFetch(server);
  const redirects: string[] = [];
  const client = createAuthClient({ baseURL: server.baseUrl, fetchOptions: { customFetchImpl, onRedirect: (url) => redirects.push(url), ...fetchOptions } });
  return Object.assign(client, { redirects });
}

async function signedUp(label: string, extra: { username?: string } = {}) {
  const client = browserClient();
  const user = { name: `Client ${label}`, email: uniqueEmail(`client-${label}`), password: PASSWORD, ...extra };
  const result = await client.signUp.email(user);
  expect(result.error).toBeNull();
  return { client, user, token: result.data!.token };
}

/** Verifies the signed-in user's address with an e-mailed code. */
async function verifyAddress(client: ReturnType<typeof browserClient>, email: string) {
  const seen = mailCount(mailbox, email);
  expect((await client.emailOtp.sendVerificationOtp({ email, type: "email-verification" })).error).toBeNull();
  const otp = (await nextMail(mailbox, email, undefined, seen)).text.match(/Your code: (\d{6})/)![1];
  expect((await client.emailOtp.verifyEmail({ email, otp })).error).toBeNull();
  return otp;
}

describe("createAuthClient's calls against this server", () => {
  it("sign-up, session, profile, password, sign-out and both sign-ins", async () => {
    const username = `cli_${Date.now().toString(36)}`;
    const { client, user, token } = await signedUp("core", { username });
    expect(token).toEqual(expect.any(String));

    const session = await client.getSession();
    expect(session.error).toBeNull();
    expect(session.data?.user).toMatchObject({ email: user.email, name: user.name, emailVerified: false });
    expect(session.data?.session.token).toBe(token);
    expect(typeof session.data?.session.expiresAt).toBe("string"); // dates arrive as ISO text, as typed

    expect(await client.updateUser({ name: "Renamed" })).toEqual({ data: { status: true }, error: null });
    expect((await client.getSession()).data?.user.name).toBe("Renamed");

    const sessions = await client.listSessions();
    expect(sessions.data).toHaveLength(1);
    expect(sessions.data?.[0].token).toBe(token);

    const changed = await client.changePassword({ currentPassword: PASSWORD, newPassword: "second passphrase" });
    expect(changed.error).toBeNull();
    expect(changed.data).toMatchObject({ user: { email: user.email } });

    expect(await client.signOut()).toEqual({ data: { success: true }, error: null });
    expect(await client.getSession()).toEqual({ data: null, error: null });

    const byUsername = await client.signIn.username({ username, password: "second passphrase" });
    expect(byUsername.error).toBeNull();
    expect(byUsername.data).toMatchObject({ user: { email: user.email } });

    const other = browserClient();
    const byEmail = await other.signIn.email({ email: user.email, password: "second passphrase", callbackURL: "/account" });
    expect(byEmail.data).toMatchObject({ redirect: true, url: "/account", user: { email: user.email } });
    expect(other.redirects).toEqual(["/account"]); // spec §2: the browser navigates there
    expect(client.redirects).toEqual([]);

    const otherToken = (await other.getSession()).data!.session.token;
    expect(await client.revokeSession({ token: otherToken })).toEqual({ data: { status: true }, error: null });
    expect((await other.getSession()).data).toBeNull();
  });

  it("the e-mailed link, the forget-password alias, social sign-in and provider tokens", async () => {
    const { client, user } = await signedUp("links");
    const failure = (status: number, statusText: string, code: string, message: string) => ({
      data: null,
      error: { status, statusText, code, message, source: "server" },
    });
    expect(await browserClient().forgetPassword({ email: user.email })).toEqual({
      data: { status: true, message: "If this email exists in our system, check your email for the reset link" },
      error: null,
    });
    expect(await client.verifyEmail({ query: { token: "not-a-token" } })).toEqual(failure(401, "Unauthorized", "INVALID_TOKEN", "invalid token"));
    // This server runs with e-mail verification off.
    expect(await client.sendVerificationEmail({ email: user.email })).toEqual(
      failure(400, "Bad Request", "VERIFICATION_EMAIL_ISNT_ENABLED", "Verification email isn't enabled"),
    );
    expect(await browserClient().signIn.social({ provider: "no-such-provider" })).toEqual(failure(404, "Not Found", "PROVIDER_NOT_FOUND", "Provider not found"));
    // No provider account linked: the token calls say so (a round trip with a provider is in social-oidc.test.ts).
    expect(await client.getAccessToken({ providerId: "github" })).toEqual(failure(400, "Bad Request", "ACCOUNT_NOT_FOUND", "Account not found"));
    expect(await client.refreshToken({ providerId: "github" })).toEqual(failure(400, "Bad Request", "ACCOUNT_NOT_FOUND", "Account not found"));
  });

  it("HTTP failures carry status, statusText and the body's code and message", async () => {
    const client = browserClient();
    expect(await client.signIn.email({ email: uniqueEmail("nobody"), password: "not the password" })).toEqual({
      data: null,
      error: { status: 401, statusText: "Unauthorized", code: "INVALID_EMAIL_OR_PASSWORD", message: "Invalid email or password", source: "server" },
    });
    expect((await client.listSessions()).error).toMatchObject({ status: 401, code: "UNAUTHORIZED" });
    expect((await client.signUp.email({ name: "Short", email: uniqueEmail("short"), password: "short" })).error).toMatchObject({
      status: 400,
      statusText: "Bad Request",
      code: "PASSWORD_TOO_SHORT",
      message: "Password too short",
    });
  });

  it("accounts, e-mail, password reset and deletion", async () => {
    const { client, user } = await signedUp("accounts");
    const accounts = await client.listAccounts();
    expect(accounts.data).toEqual([expect.objectContaining({ providerId: "credential", accountId: expect.any(String) })]);
    expect((await client.unlinkAccount({ providerId: "credential" })).error).toMatchObject({ status: 400, message: "You can't unlink your last account" });
    expect((await client.linkSocial({ provider: "no-such-provider" })).error).toMatchObject({ status: 404, message: "Provider not found" });
    expect((await client.changeEmail({ newEmail: user.email })).error).toMatchObject({ status: 400, message: "Email is the same" });
    const newEmail = uniqueEmail("client-moved");
    expect(await client.changeEmail({ newEmail })).toEqual({ data: { status: true }, error: null });
    expect((await client.getSession()).data?.user.email).toBe(newEmail); // unverified: changed at once (spec §4)

    expect(await browserClient().requestPasswordReset({ email: newEmail })).toMatchObject({ data: { status: true }, error: null });
    expect((await browserClient().resetPassword({ newPassword: "another passphrase", token: "not-a-token" })).error).toMatchObject({
      status: 400,
      code: "INVALID_TOKEN",
    });
    // This server runs with e-mail verification off: the catalogue's refusal, as data the caller can switch on.
    expect((await client.sendVerificationEmail({ email: newEmail })).error).toMatchObject({ status: 400, message: "Verification email isn't enabled" });
    expect((await client.deleteUser({ password: "wrong password" })).error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });
    expect((await client.deleteUser({ password: PASSWORD })).data).toEqual({ success: true, message: "User deleted" });
  });

  it("organization.*", async () => {
    const { client } = await signedUp("org");
    const slug = `client-org-${Date.now().toString(36)}`;
    const created = await client.organization.create({ name: "Client Org", slug });
    expect(created.error).toBeNull();
    expect(created.data).toMatchObject({ name: "Client Org", slug });
    expect((await client.organization.create({ name: "Again", slug })).error).toMatchObject({ status: 400, code: "ORGANIZATION_ALREADY_EXISTS" });
    expect((await client.organization.list()).data).toEqual([expect.objectContaining({ slug })]);
    const full = await client.organization.getFullOrganization();
    expect(full.data).toMatchObject({ id: created.data!.id, members: [expect.objectContaining({ role: "owner" })] });
    expect((await client.organization.getFullOrganization({ query: { organizationSlug: "no-such-org" } })).error).toMatchObject({ status: 400 });
    expect((await client.organization.setActive({ organizationId: null })).error).toBeNull();
    expect((await client.organization.getFullOrganization()).data).toBeNull();
    const invited = await client.organization.inviteMember({ email: uniqueEmail("client-invitee"), role: "member", organizationId: created.data!.id });
    expect(invited.data).toMatchObject({ status: "pending", role: "member" });
    expect((await client.organization.delete({ organizationId: created.data!.id })).error).toBeNull();
    expect((await client.organization.list()).data).toEqual([]);
  });

  it("organization.*: an invitation accepted, members listed, leaving", async () => {
    const { client: owner } = await signedUp("org-owner");
    const { client: invitee, user: inviteeUser } = await signedUp("org-invitee");
    const slug = `client-team-${Date.now().toString(36)}`;
    const organizationId = (await owner.organization.create({ name: "Client Team", slug })).data!.id;
    const invitation = (await owner.organization.inviteMember({ email: inviteeUser.email, role: "member" })).data!;
    expect((await owner.organization.listInvitations()).data).toEqual([expect.objectContaining({ id: invitation.id, status: "pending" })]);
    // Invitations are for verified addresses (by default): unverified, none is listed.
    expect(await invitee.organization.listUserInvitations()).toEqual({ data: [], error: null });
    await verifyAddress(invitee, inviteeUser.email);
    expect((await invitee.organization.listUserInvitations()).data).toEqual([expect.objectContaining({ id: invitation.id })]);
    expect((await invitee.organization.getInvitation({ query: { id: invitation.id } })).data).toMatchObject({ organizationSlug: slug });
    expect((await owner.organization.acceptInvitation({ invitationId: invitation.id })).error).toMatchObject({ status: 403 });
    const accepted = await invitee.organization.acceptInvitation({ invitationId: invitation.id });
    expect(accepted.data).toMatchObject({ invitation: { status: "accepted" }, member: { role: "member" } });
    expect((await invitee.organization.getActiveMember()).data).toMatchObject({ organizationId, role: "member" });
    expect((await invitee.organization.getActiveMemberRole()).data).toMatchObject({ role: "member" });
    expect((await owner.organization.listMembers()).data).toMatchObject({ total: 2 });
    expect((await invitee.organization.hasPermission({ permissions: { organization: ["delete"] } })).data).toMatchObject({ success: false });
    expect((await owner.organization.update({ data: { name: "Renamed Team" } })).data).toMatchObject({ name: "Renamed Team" });
    expect((await owner.organization.checkSlug({ slug })).error).toMatchObject({ status: 400 });
    expect((await invitee.organization.leave({ organizationId })).error).toBeNull();
    expect((await invitee.organization.list()).data).toEqual([]);
    expect((await owner.organization.leave({ organizationId })).error).toMatchObject({ status: 400 }); // the only owner
  });

  it("sessions, usernames and social sign-in", async () => {
    const { client, user } = await signedUp("sessions");
    const other = browserClient();
    await other.signIn.email({ email: user.email, password: PASSWORD });
    expect(await client.revokeOtherSessions()).toEqual({ data: { status: true }, error: null });
    expect((await other.getSession()).data).toBeNull();
    expect(await client.revokeSessions()).toEqual({ data: { status: true }, error: null });
    expect((await client.getSession()).data).toBeNull();
    expect(await client.isUsernameAvailable({ username: `free_${Date.now().toString(36)}` })).toEqual({ data: { available: true }, error: null });
    expect((await client.signIn.social({ provider: "no-such-provider" })).error).toMatchObject({ status: 404, message: "Provider not found" });
    expect(client.redirects).toEqual([]);
  });

  it("twoFactor.*", async () => {
    const { client } = await signedUp("2fa");
    expect((await client.twoFactor.enable({ password: "wrong password" })).error).toMatchObject({ status: 400, code: "INVALID_PASSWORD" });
    const enabled = await client.twoFactor.enable({ password: PASSWORD });
    const { totpURI, backupCodes } = enabled.data as { totpURI: string; backupCodes: string[] };
    expect(backupCodes).toHaveLength(10);
    expect((await client.twoFactor.verifyTotp({ code: "000000x" })).error).toMatchObject({ status: 401 });
    const used = new Set<number>();
    expect((await client.twoFactor.verifyTotp({ code: freshCode(totpURI, used) })).error).toBeNull();
    expect((await client.getSession()).data?.user.twoFactorEnabled).toBe(true);
    expect((await client.twoFactor.getTotpUri({ password: PASSWORD })).data).toEqual({ totpURI });
    const regenerated = await client.twoFactor.generateBackupCodes({ password: PASSWORD });
    expect(regenerated.data).toMatchObject({ status: true, backupCodes: expect.any(Array) });
    expect(regenerated.data!.backupCodes).not.toEqual(backupCodes);

    // Signing in again stops at the second step; a backup code finishes it.
    const laptop = browserClient();
    const first = await laptop.signIn.email({ email: (await client.getSession()).data!.user.email, password: PASSWORD });
    expect(first.data).toMatchObject({ twoFactorRedirect: true });
    expect((await laptop.twoFactor.verifyBackupCode({ code: "wrong-code" })).error).toMatchObject({ status: 401 });
    expect((await laptop.twoFactor.verifyBackupCode({ code: regenerated.data!.backupCodes[0] })).data).toMatchObject({ user: { twoFactorEnabled: true } });
    expect(await client.twoFactor.disable({ password: PASSWORD })).toEqual({ data: { status: true }, error: null });
  });

  it("emailOtp.* and signIn.emailOtp", async () => {
    const { user } = await signedUp("otp");
    const client = browserClient();
    const seen = mailCount(mailbox, user.email, /sign-in code/);
    expect(await client.emailOtp.sendVerificationOtp({ email: user.email, type: "sign-in" })).toEqual({ data: { success: true }, error: null });
    const otp = (await nextMail(mailbox, user.email, /sign-in code/, seen)).text.match(/Your code: (\d{6})/)![1];
    expect((await client.signIn.emailOtp({ email: user.email, otp: "000000" === otp ? "111111" : "000000" })).error).toMatchObject({ status: 400, code: "INVALID_OTP" });
    const signedIn = await client.signIn.emailOtp({ email: user.email, otp });
    expect(signedIn.data).toMatchObject({ user: { email: user.email } });

    // By subject: the sign-in from this new browser also sends a new-device notice, on its own time (ADR 048).
    const seenVerify = mailCount(mailbox, user.email, /verification code/);
    expect((await client.emailOtp.sendVerificationOtp({ email: user.email, type: "email-verification" })).error).toBeNull();
    const verifyCode = (await nextMail(mailbox, user.email, /verification code/, seenVerify)).text.match(/Your code: (\d{6})/)![1];
    expect(await client.emailOtp.checkVerificationOtp({ email: user.email, type: "email-verification", otp: verifyCode })).toEqual({
      data: { success: true },
      error: null,
    });
    expect((await client.emailOtp.verifyEmail({ email: user.email, otp: verifyCode })).data).toMatchObject({ status: true, user: { emailVerified: true } });

    const seenReset = mailCount(mailbox, user.email, /password reset code/);
    expect(await client.emailOtp.requestPasswordReset({ email: user.email })).toEqual({ data: { success: true }, error: null });
    const resetCode = (await nextMail(mailbox, user.email, /password reset code/, seenReset)).text.match(/Your code: (\d{6})/)![1];
    expect((await client.emailOtp.resetPassword({ email: user.email, otp: "nope", password: "fresh passphrase" })).error).toMatchObject({ status: 400 });
    expect(await client.emailOtp.resetPassword({ email: user.email, otp: resetCode, password: "fresh passphrase" })).toEqual({ data: { success: true }, error: null });
  });

  it("passkey.* without a ceremony", async () => {
    const { client } = await signedUp("passkey");
    expect(await client.passkey.listUserPasskeys()).toEqual({ data: [], error: null });
    expect((await client.passkey.updatePasskey({ id: "no-such-passkey", name: "x" })).error).toMatchObject({ status: 404 });
    expect((await client.passkey.deletePasskey({ id: "no-such-passkey" })).error).toMatchObject({ status: 404 });
  });
});

describe("the session store against this server", () => {
  it("follows sign-in, a new name and sign-out (refetched after each call)", async () => {
    const { user } = await signedUp("store");
    const client = browserClient();
    const store = client.$store.session;
    const stop = store.subscribe(() => {});
    await vi.waitFor(() => expect(store.getSnapshot()).toMatchObject({ isPending: false, data: null }));
    await client.signIn.email({ email: user.email, password: PASSWORD });
    await vi.waitFor(() => expect(store.getSnapshot().data?.user.email).toBe(user.email));
    await client.updateUser({ name: "Live Name" });
    await vi.waitFor(() => expect(store.getSnapshot().data?.user.name).toBe("Live Name"));
    await client.signOut();
    await vi.waitFor(() => expect(store.getSnapshot().data).toBeNull());
    stop();
  });
});

describe("base URL", () => {
  it("must be a valid URL (spec §5)", () => {
    expect(() => createAuthClient({ baseURL: "not a url" })).toThrow(new Error("Invalid base URL: not a url. Please provide a valid base URL."));
    expect(() => createAuthClient({ baseURL: "localhost:3000" })).toThrow("Invalid base URL: localhost:3000. Please provide a valid base URL.");
  });

  it("gets /api/auth unless it has a path of its own or a basePath is given", () => {
    expect(createAuthClient({ baseURL: "https://auth.example.com" }).baseURL).toBe("https://auth.example.com/api/auth");
    expect(createAuthClient({ baseURL: "https://example.com/proxy/auth/" }).baseURL).toBe("https://example.com/proxy/auth");
    expect(createAuthClient({ baseURL: "https://example.com", basePath: "/auth" }).baseURL).toBe("https://example.com/auth");
    // No window here: the page's own origin is empty, so the path is relative.
    expect(createAuthClient().baseURL).toBe("/api/auth");
  });
});

/** A stub server: each request gets `answer`'s reply; counts requests by method and path. */
async function stubServer(answer: (request: http.IncomingMessage, response: http.ServerResponse) => void) {
  const requests: string[] = [];
  const stub = http.createServer((request, response) => {
    requests.push(`${request.method} ${request.url}`);
    answer(request, response);
  });
  await new Promise<void>((resolve) => stub.listen(0, "127.0.0.1", resolve));
  const { port } = stub.address() as net.AddressInfo;
  return { url: `http://127.0.0.1:${port}`, requests, close: () => new Promise<void>((resolve) => stub.close(() => resolve())) };
}

async function closedPort(): Promise<number> {
  const probe = net.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as net.AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("failures without an answer, and retries", () => {
  it("a network failure becomes an error response (spec §8)", async () => {
    const client = createAuthClient({ baseURL: `http://127.0.0.1:${await closedPort()}` });
    const result = await client.getSession();
    expect(result).toEqual({ data: null, error: expect.objectContaining({ status: 0, statusText: "", code: "NETWORK_ERROR", source: "network" }) });
    expect((await client.signIn.email({ email: "a@example.com", password: "x" })).error?.code).toBe("NETWORK_ERROR");
  });

  it("a 500 carries its status, statusText and body; without a JSON body the code comes from the status text", async () => {
    const stub = await stubServer((request, response) => {
      if (request.url?.startsWith("/api/auth/get-session")) {
        response.writeHead(500, { "Content-Type": "application/json" }).end(JSON.stringify({ code: "DATABASE_DOWN", message: "Database down" }));
      } else {
        response.writeHead(503, { "Content-Type": "text/html" }).end("<h1>Down</h1>");
      }
    });
    const client = createAuthClient({ baseURL: stub.url });
    expect(await client.getSession()).toEqual({
      data: null,
      error: { status: 500, statusText: "Internal Server Error", code: "DATABASE_DOWN", message: "Database down", source: "server" },
    });
    expect((await client.listSessions()).error).toEqual({
      status: 503,
      statusText: "Service Unavailable",
      code: "SERVICE_UNAVAILABLE",
      message: "Service Unavailable",
      source: "server",
    });
    await stub.close();
  });

  it("retries only network failures and 5xx, only of idempotent calls, linearly", async () => {
    let failures = 0;
    const stub = await stubServer((request, response) => {
      if (request.url?.startsWith("/api/auth/list-sessions")) return void response.writeHead(400, { "Content-Type": "application/json" }).end("{}");
      if (request.url?.startsWith("/api/auth/list-accounts")) return void request.socket.destroy(); // no answer at all
      failures++;
      response.writeHead(500).end();
    });
    const retry = { type: "linear" as const, attempts: 2, interval: 5 };
    const client = createAuthClient({ baseURL: stub.url, fetchOptions: { retry } });

    expect((await client.getSession()).error?.status).toBe(500); // GET: 1 + 2 retries
    expect((await client.listAccounts()).error?.code).toBe("NETWORK_ERROR"); // network failure: retried too
    expect((await client.listSessions()).error?.status).toBe(400); // 4xx: never retried
    expect((await client.signIn.email({ email: "a@example.com", password: "x" })).error?.status).toBe(500); // POST: not idempotent
    expect((await client.organization.checkSlug({ slug: "x" }, { idempotent: true })).error?.status).toBe(500); // declared idempotent
    expect(stub.requests.map((r) => r.split("?")[0])).toEqual([
      ...Array(3).fill("GET /api/auth/get-session"),
      ...Array(3).fill("GET /api/auth/list-accounts"),
      "GET /api/auth/list-sessions",
      "POST /api/auth/sign-in/email",
      ...Array(3).fill("POST /api/auth/organization/check-slug"),
    ]);
    expect(failures).toBe(7);

    // A bare count retries at the default 1000 ms interval (spec §9; not timed here).
    stub.requests.length = 0;
    const counted = createAuthClient({ baseURL: stub.url, fetchOptions: { retry: 1 } });
    expect((await counted.getSession()).error?.status).toBe(500);
    expect(stub.requests).toHaveLength(2);
    await stub.close();
  });
});
