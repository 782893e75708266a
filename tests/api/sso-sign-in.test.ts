// Signing in through an organization's OIDC connection (issue 43): which connection answers, the authorization
// request, the return with its ID-token checks, who signs in (new, linked, claimed, refused) and membership.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, signUp, uniqueEmail } from "../support/client";
import { COOKIE, setCookie } from "../support/cookies";
import { enableTwoFactor } from "../support/two-factor";
import { Mailbox } from "../support/mailbox";
import { count, query } from "../support/sql";
import {
  addMember,
  CLIENT_ID,
  createOrganization,
  person,
  proveDomain,
  registerOidc,
  startSsoWorld,
  uniqueDomain,
  type Person,
  type SsoWorld,
} from "../support/sso";

let world: SsoWorld;
let mailbox: Mailbox;
let owner: Person;
let organizationId: string;
/** A proven connection for `domain`. */
let connection: { providerId: string; domain: string; domainVerificationToken: string };

beforeAll(async () => {
  mailbox = await new Mailbox().start();
  world = await startSsoWorld({ SMTP_URL: mailbox.url });
  owner = await person(world.server);
  organizationId = (await createOrganization(owner)).id;
  connection = await registerOidc(world, owner, organizationId);
  await proveDomain(world, owner, connection);
});
afterAll(async () => {
  await world?.stop();
  await mailbox?.stop();
});

const now = () => (world.server.database.kind === "sqlite" ? Date.now() : new Date());
const addressAt = (domain: string, prefix = "ann") => `${uniqueEmail(prefix).split("@")[0]}@${domain}`;
const identity = (email: string, extra: Record<string, unknown> = {}) => ({ sub: `sub-${email}`, email, email_verified: true, name: "Ann Lee", ...extra });

/** Starts a sign-in in `browser`, lets the IdP approve as `subject`, and follows the IdP's return. */
async function roundTrip(browser: ApiClient, subject: Record<string, unknown>, body: Record<string, unknown> = {}) {
  world.claims = subject;
  const start = await browser.post("/api/auth/sign-in/sso", { email: subject.email, callbackURL: "/account", ...body });
  expect(start.status, start.text).toBe(200);
  const authorize = await fetch(start.body.url, { redirect: "manual" });
  expect(authorize.status).toBe(302);
  const callback = authorize.headers.get("location")!;
  const back = await browser.get(callback);
  return { start, callback, back, location: back.headers.get("location") ?? "" };
}

async function memberRole(userId: string, org = organizationId): Promise<string | undefined> {
  const rows = await query<{ role: string }>(world.server.database, `SELECT "role" FROM "member" WHERE "organizationId" = ? AND "userId" = ?`, [org, userId]);
  return rows[0]?.role;
}

describe("POST /sign-in/sso", () => {
  it("answers the IdP's authorization URL: client id, redirect URI, code, 32-character state, PKCE S256, nonce, scopes, login hint", async () => {
    const email = addressAt(connection.domain);
    const response = await new ApiClient(world.server.baseUrl).post("/api/auth/sign-in/sso", { email, callbackURL: "/account" });
    expect(response.status, response.text).toBe(200);
    expect(response.body.redirect).toBe(true);
    const url = new URL(response.body.url);
    expect(`${url.origin}${url.pathname}`).toBe(`${world.issuer}/authorize`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: CLIENT_ID,
      redirect_uri: `${world.server.baseUrl}/api/auth/sso/callback/${connection.providerId}`,
      response_type: "code",
      code_challenge_method: "S256",
      scope: "openid email profile",
      login_hint: email,
    });
    expect(url.searchParams.get("state")).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(url.searchParams.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get("nonce")).toBeTruthy();
    // By domain, subdomain, organization slug and id alike.
    const slug = (await query<{ slug: string }>(world.server.database, `SELECT "slug" FROM "organization" WHERE "id" = ?`, [organizationId]))[0].slug;
    for (const body of [{ domain: connection.domain }, { email: `bo@eu.${connection.domain}` }, { organizationSlug: slug }, { providerId: connection.providerId }]) {
      const other = await new ApiClient(world.server.baseUrl).post("/api/auth/sign-in/sso", body);
      expect(other.status, JSON.stringify(body)).toBe(200);
      expect(new URL(other.body.url).searchParams.get("redirect_uri")).toContain(connection.providerId);
    }
  });

  it("answers 400 without a way to find the connection, 404 with none, 401 when only unproven ones claim the domain, 403 for a foreign callbackURL", async () => {
    const client = new ApiClient(world.server.baseUrl);
    expect((await client.post("/api/auth/sign-in/sso", { callbackURL: "/account" })).status).toBe(400);
    const none = await client.post("/api/auth/sign-in/sso", { email: "ann@nobody-has-this.example" });
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ code: "NO_PROVIDER_FOUND_FOR_THE_ISSUER", message: "No provider found for the issuer" });
    const unproven = await registerOidc(world, owner, organizationId);
    const refused = await client.post("/api/auth/sign-in/sso", { email: addressAt(unproven.domain) });
    expect(refused.status).toBe(401);
    expect(refused.body.message).toBe("Provider domain has not been verified");
    expect((await client.post("/api/auth/sign-in/sso", { providerId: unproven.providerId })).status).toBe(401);
    expect((await client.post("/api/auth/sign-in/sso", { email: addressAt(connection.domain), callbackURL: "https://evil.example/" })).status).toBe(403);
    expect((await client.post("/api/auth/sign-in/sso", { email: addressAt(connection.domain), errorCallbackURL: "//evil.example/" })).status).toBe(403);
  });

  it("routes a domain to its owner's proven connection even when a squatter registered an unproven one first", async () => {
    const domain = uniqueDomain("contested");
    const squatter = await person(world.server);
    const squatterOrg = (await createOrganization(squatter)).id;
    await registerOidc(world, squatter, squatterOrg, { domain });
    const rightful = await registerOidc(world, owner, organizationId, { domain });
    await proveDomain(world, owner, rightful);
    const response = await new ApiClient(world.server.baseUrl).post("/api/auth/sign-in/sso", { email: addressAt(domain) });
    expect(response.status).toBe(200);
    expect(new URL(response.body.url).searchParams.get("redirect_uri")).toBe(`${world.server.baseUrl}/api/auth/sso/callback/${rightful.providerId}`);
  });
});

describe("the return: who signs in", () => {
  it("creates a verified user and a member with SSO_DEFAULT_ROLE, then signs the same identity in again", async () => {
    const subject = identity(addressAt(connection.domain));
    const browser = new ApiClient(world.server.baseUrl);
    const { back } = await roundTrip(browser, subject, { newUserCallbackURL: "/welcome" });
    expect(back.status).toBe(302);
    expect(back.headers.get("location")).toBe(`${world.server.baseUrl}/welcome`);
    expect(setCookie(back, COOKIE.sessionToken)?.value).toBeTruthy();
    const session = await browser.get("/api/auth/get-session");
    expect(session.body.user).toMatchObject({ email: subject.email, name: "Ann Lee", emailVerified: true });
    expect(await memberRole(session.body.user.id)).toBe("member");
    expect(await count(world.server.database, "account", `"providerId" = ? AND "accountId" = ?`, [connection.providerId, subject.sub])).toBe(1);

    const again = await roundTrip(new ApiClient(world.server.baseUrl), subject, { newUserCallbackURL: "/welcome" });
    expect(again.location).toBe(`${world.server.baseUrl}/account`);
    expect(await count(world.server.database, "user", `"email" = ?`, [subject.email])).toBe(1);
  });

  it("refuses an address outside the connection's proven domains (email_domain_mismatch): nothing created or linked", async () => {
    const outsider = identity(uniqueEmail("outsider"));
    const browser = new ApiClient(world.server.baseUrl);
    const { back, location } = await roundTrip(browser, outsider, { email: addressAt(connection.domain), errorCallbackURL: "/sign-in/sso" });
    expect(location).toBe(`${world.server.baseUrl}/sign-in/sso?error=email_domain_mismatch`);
    expect(setCookie(back, COOKIE.sessionToken)?.value ?? "").toBe("");
    expect(await count(world.server.database, "user", `"email" = ?`, [outsider.email])).toBe(0);
    expect(await count(world.server.database, "account", `"accountId" = ?`, [outsider.sub])).toBe(0);
  });

  it("links the identity to a verified account with that address, with an account_linked event for its owner", async () => {
    const email = addressAt(connection.domain);
    const existing = await signUp(new ApiClient(world.server.baseUrl), { email });
    await query(world.server.database, `UPDATE "user" SET "emailVerified" = ?, "inboxProvenAt" = ? WHERE "id" = ?`, [world.server.database.kind === "sqlite" ? 1 : true, now(), existing.user.id]);
    const browser = new ApiClient(world.server.baseUrl);
    const { location } = await roundTrip(browser, identity(email));
    expect(location).toBe(`${world.server.baseUrl}/account`);
    expect((await browser.get("/api/auth/get-session")).body.user.id).toBe(existing.user.id);
    // The password stays; the new way in is recorded (and mailed after the commit, ADR 048).
    expect(await count(world.server.database, "account", `"userId" = ?`, [existing.user.id])).toBe(2);
    const events = await query<{ details: string }>(world.server.database, `SELECT "details" FROM "securityEvent" WHERE "userId" = ? AND "type" = 'account_linked'`, [existing.user.id]);
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0].details)).toMatchObject({ provider: connection.providerId, byAddress: true });
    const mail = await mailbox.waitFor(email, /was linked/);
    expect(mail.text).toContain(`Single sign-on (${connection.providerId}) account was linked to your account`);
  });

  it("claims a never-proven account with that address: what was set up before ends, the address becomes verified", async () => {
    const email = addressAt(connection.domain);
    const squatter = new ApiClient(world.server.baseUrl);
    const existing = await signUp(squatter, { email });
    const browser = new ApiClient(world.server.baseUrl);
    const { location } = await roundTrip(browser, identity(email));
    expect(location).toBe(`${world.server.baseUrl}/account`);
    const session = await browser.get("/api/auth/get-session");
    expect(session.body.user).toMatchObject({ id: existing.user.id, emailVerified: true });
    // The squatter's password and session are gone.
    expect(await count(world.server.database, "account", `"userId" = ? AND "providerId" = 'credential'`, [existing.user.id])).toBe(0);
    expect((await squatter.get("/api/auth/get-session")).body).toBeNull();
  });

  it("gives a banned account nothing, and keeps two-factor's second step", async () => {
    const banned = await signUp(new ApiClient(world.server.baseUrl), { email: addressAt(connection.domain) });
    await query(world.server.database, `UPDATE "user" SET "banned" = ?, "emailVerified" = ? WHERE "id" = ?`, [world.server.database.kind === "sqlite" ? 1 : true, world.server.database.kind === "sqlite" ? 1 : true, banned.user.id]);
    const { back, location } = await roundTrip(new ApiClient(world.server.baseUrl), identity(banned.email), { errorCallbackURL: "/sign-in" });
    expect(location).toBe(`${world.server.baseUrl}/sign-in?error=banned`);
    expect(setCookie(back, COOKIE.sessionToken)?.value ?? "").toBe("");
    expect(await count(world.server.database, "account", `"userId" = ? AND "providerId" = ?`, [banned.user.id, connection.providerId])).toBe(0);
    expect(await memberRole(banned.user.id)).toBeUndefined();

    // Two-factor on: the IdP is a first factor; the session waits for the second.
    const email = addressAt(connection.domain);
    const careful = new ApiClient(world.server.baseUrl);
    const account = await signUp(careful, { email });
    await query(world.server.database, `UPDATE "user" SET "emailVerified" = ? WHERE "id" = ?`, [world.server.database.kind === "sqlite" ? 1 : true, account.user.id]);
    await enableTwoFactor(careful);
    const browser = new ApiClient(world.server.baseUrl);
    const second = await roundTrip(browser, identity(email));
    expect(second.location).toBe(`${world.server.baseUrl}/two-factor?redirectTo=%2Faccount`);
    expect((await browser.get("/api/auth/get-session")).body).toBeNull();
  });
});

describe("the return: at once", () => {
  it("makes one user, one link and one membership of two first sign-ins of one identity at the same moment", async () => {
    const subject = identity(addressAt(connection.domain));
    world.claims = subject;
    const browsers = [new ApiClient(world.server.baseUrl), new ApiClient(world.server.baseUrl)];
    const callbacks = await Promise.all(
      browsers.map(async (browser) => {
        const start = await browser.post("/api/auth/sign-in/sso", { email: subject.email, callbackURL: "/account" });
        return (await fetch(start.body.url, { redirect: "manual" })).headers.get("location")!;
      }),
    );
    const backs = await Promise.all(browsers.map((browser, index) => browser.get(callbacks[index])));
    for (const back of backs) expect(back.headers.get("location")).toBe(`${world.server.baseUrl}/account`);
    expect(await count(world.server.database, "user", `"email" = ?`, [subject.email])).toBe(1);
    expect(await count(world.server.database, "account", `"providerId" = ? AND "accountId" = ?`, [connection.providerId, subject.sub])).toBe(1);
    const [user] = await query<{ id: string }>(world.server.database, `SELECT "id" FROM "user" WHERE "email" = ?`, [subject.email]);
    expect(await count(world.server.database, "member", `"organizationId" = ? AND "userId" = ?`, [organizationId, user.id])).toBe(1);
  });
});

describe("the return: membership", () => {
  it("lets a pending invitation decide the role, keeps an existing member's role, and brings a removed member back", async () => {
    const invited = addressAt(connection.domain);
    const invitation = await owner.client.post("/api/auth/organization/invite-member", { email: invited, role: "admin", organizationId });
    expect(invitation.status, invitation.text).toBe(200);
    const browser = new ApiClient(world.server.baseUrl);
    await roundTrip(browser, identity(invited));
    const userId = (await browser.get("/api/auth/get-session")).body.user.id;
    expect(await memberRole(userId)).toBe("admin");
    expect((await query<{ status: string }>(world.server.database, `SELECT "status" FROM "invitation" WHERE "id" = ?`, [invitation.body.id]))[0].status).toBe("accepted");

    // The owner signing in through the connection stays owner.
    const ownerEmail = owner.email;
    expect(ownerEmail).not.toContain(connection.domain);
    const memberEmail = addressAt(connection.domain);
    const member = await person(world.server, memberEmail);
    await query(world.server.database, `UPDATE "user" SET "emailVerified" = ? WHERE "id" = ?`, [world.server.database.kind === "sqlite" ? 1 : true, member.id]);
    await addMember(world.server, organizationId, member, "admin,member");
    await roundTrip(new ApiClient(world.server.baseUrl), identity(memberEmail));
    expect(await memberRole(member.id)).toBe("admin,member");

    await query(world.server.database, `DELETE FROM "member" WHERE "organizationId" = ? AND "userId" = ?`, [organizationId, member.id]);
    await roundTrip(new ApiClient(world.server.baseUrl), identity(memberEmail));
    expect(await memberRole(member.id)).toBe("member");
  });
});

describe("the return: refusals", () => {
  it("uses the state once, in the browser that started, and answers invalid_state otherwise", async () => {
    world.claims = identity(addressAt(connection.domain));
    const browser = new ApiClient(world.server.baseUrl);
    const start = await browser.post("/api/auth/sign-in/sso", { email: world.claims.email, callbackURL: "/account" });
    const callback = (await fetch(start.body.url, { redirect: "manual" })).headers.get("location")!;
    const elsewhere = await new ApiClient(world.server.baseUrl).get(callback);
    expect(elsewhere.headers.get("location")).toBe(`${world.server.baseUrl}/api/auth/error?error=invalid_state`);
    expect((await browser.get(callback)).headers.get("location")).toBe(`${world.server.baseUrl}/account`);
    const replay = await browser.get(callback);
    expect(replay.headers.get("location")).toBe(`${world.server.baseUrl}/api/auth/error?error=invalid_state`);
    expect((await browser.get(`/api/auth/sso/callback/${connection.providerId}?code=x`)).headers.get("location")).toContain("error=invalid_state");
  });

  it("passes the IdP's own error on to errorCallbackURL", async () => {
    const browser = new ApiClient(world.server.baseUrl);
    const start = await browser.post("/api/auth/sign-in/sso", { email: addressAt(connection.domain), callbackURL: "/account", errorCallbackURL: "/sign-in/sso" });
    const state = new URL(start.body.url).searchParams.get("state")!;
    const back = await browser.get(`/api/auth/sso/callback/${connection.providerId}?error=access_denied&state=${state}`);
    expect(back.headers.get("location")).toBe(`${world.server.baseUrl}/sign-in/sso?error=access_denied`);
  });

  it.each([
    ["another audience", { aud: "someone-else" }],
    ["another authorized party", { azp: "someone-else" }],
    ["another issuer", { iss: "https://evil.example" }],
    ["another nonce", { nonce: "not-the-one-sent" }],
    ["an expiry long past", { exp: Math.floor(Date.now() / 1000) - 3600 }],
  ])("refuses an ID token with %s (invalid_id_token), signing nobody in", async (_name, tamper) => {
    const subject = { ...identity(addressAt(connection.domain)), ...tamper };
    const { back, location } = await roundTrip(new ApiClient(world.server.baseUrl), subject, { errorCallbackURL: "/sign-in/sso" });
    expect(location).toBe(`${world.server.baseUrl}/sign-in/sso?error=invalid_id_token`);
    expect(setCookie(back, COOKIE.sessionToken)?.value ?? "").toBe("");
    expect(await count(world.server.database, "user", `"email" = ?`, [subject.email])).toBe(0);
  });

  it("refuses at the return a connection no longer proven (invalid_provider), and one removed (404 at the start)", async () => {
    const provider = await registerOidc(world, owner, organizationId);
    await proveDomain(world, owner, provider);
    world.claims = identity(addressAt(provider.domain));
    const browser = new ApiClient(world.server.baseUrl);
    const start = await browser.post("/api/auth/sign-in/sso", { providerId: provider.providerId, callbackURL: "/account" });
    const callback = (await fetch(start.body.url, { redirect: "manual" })).headers.get("location")!;
    await query(world.server.database, `UPDATE "ssoProvider" SET "domainVerified" = ? WHERE "providerId" = ?`, [world.server.database.kind === "sqlite" ? 0 : false, provider.providerId]);
    expect((await browser.get(callback)).headers.get("location")).toContain("error=invalid_provider");
    expect((await owner.client.post("/api/auth/sso/delete-provider", { providerId: provider.providerId })).status).toBe(200);
    expect((await browser.post("/api/auth/sign-in/sso", { providerId: provider.providerId })).status).toBe(404);
  });
});

describe("SSO_DEFAULT_ROLE=admin", () => {
  it("makes a new person an admin of the organization", async () => {
    const other = await startSsoWorld({ SSO_DEFAULT_ROLE: "admin" });
    try {
      const boss = await person(other.server);
      const org = (await createOrganization(boss)).id;
      const provider = await registerOidc(other, boss, org);
      await proveDomain(other, boss, provider);
      other.claims = identity(addressAt(provider.domain));
      const browser = new ApiClient(other.server.baseUrl);
      const start = await browser.post("/api/auth/sign-in/sso", { email: other.claims.email, callbackURL: "/account" });
      const callback = (await fetch(start.body.url, { redirect: "manual" })).headers.get("location")!;
      await browser.get(callback);
      const userId = (await browser.get("/api/auth/get-session")).body.user.id;
      const rows = await query<{ role: string }>(other.server.database, `SELECT "role" FROM "member" WHERE "organizationId" = ? AND "userId" = ?`, [org, userId]);
      expect(rows[0]?.role).toBe("admin");
    } finally {
      await other.stop();
    }
  });
});
