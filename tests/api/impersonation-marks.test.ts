// Issue 38's low items, over HTTP: what an admin acting as someone may not do in the owner's name ("This wasn't
// me", the profile), that what they do is recorded as theirs and shown to the owner as an administrator's without
// their address and browser (which the console keeps), that the session JWT they get says who holds it (`act`),
// and that the pushed-authorization endpoint discovery names answers.
import * as jose from "jose";
import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, shownText } from "../support/client";
import { registerClient, relyingParty } from "../support/oidc-clients";
import { sharedServer, type TestServer } from "../support/server";
import { count, query } from "../support/sql";

const CHROME_ON_LINUX = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36";
const FIREFOX_ON_WINDOWS = "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0";

let server: TestServer;
beforeAll(async () => {
  server = await sharedServer({ env: { AUTH_EMAIL_VERIFICATION: "off" } });
});
afterAll(async () => server?.stop());

/** A browser that names itself with a User-Agent, as the device the activity page describes. */
class Browser extends ApiClient {
  constructor(readonly userAgent: string) {
    super(server.baseUrl);
  }
  override request<T = any>(method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) {
    return super.request<T>(method, path, { ...options, headers: { "user-agent": this.userAgent, ...options.headers } });
  }
}

const form = (fields: Record<string, string>) => ({ rawBody: new URLSearchParams(fields).toString(), headers: { "content-type": "application/x-www-form-urlencoded" } });
const signIn = (browser: ApiClient, email: string) => browser.post("/api/auth/sign-in/email", { email, password: PASSWORD });

async function signedInAdmin() {
  const first = await signUp(new Browser(FIREFOX_ON_WINDOWS), { name: "Support Admin" });
  await query(server.database, `UPDATE "user" SET "role" = 'admin' WHERE "id" = ?`, [first.user.id]);
  const browser = new Browser(FIREFOX_ON_WINDOWS);
  expect((await signIn(browser, first.email)).status).toBe(200);
  return { browser, id: first.user.id as string, email: first.email };
}

/** An owner signed in on their own browser, and an admin's browser acting as them. */
async function impersonating() {
  const owner = new Browser(CHROME_ON_LINUX);
  const account = await signUp(owner, { name: "Olive Owner" });
  const admin = await signedInAdmin();
  const started = await admin.browser.post("/api/auth/admin/impersonate-user", { userId: account.user.id });
  expect(started.status, started.text).toBe(200);
  return { owner, ownerId: account.user.id as string, ownerEmail: account.email, admin };
}

interface StoredEvent {
  type: string;
  actorUserId: string | null;
  ipAddress: string | null;
}
const eventsOf = (userId: string) =>
  query<StoredEvent>(server.database, `SELECT "type", "actorUserId", "ipAddress" FROM "securityEvent" WHERE "userId" = ? ORDER BY "createdAt", "id"`, [userId]);
const liveSessions = (userId: string) => count(server.database, "session", `"userId" = ? AND "impersonatedBy" IS NULL`, [userId]);

describe("an admin acting as someone (issue 38 items 5, 6)", () => {
  it("cannot press “This wasn't me” nor change the profile, by the API or the pages", async () => {
    const { owner, ownerId, admin } = await impersonating();
    const refusals = [
      await admin.browser.post("/api/auth/end-all-sessions", {}),
      await admin.browser.post("/api/auth/update-user", { name: "Renamed By Admin" }),
    ];
    for (const refused of refusals) expect(refused.body, refused.text).toMatchObject({ code: "NOT_ALLOWED_WHILE_IMPERSONATING" });
    expect(refusals.map((refused) => refused.status)).toEqual([403, 403]);
    const pageRefusals = [
      await admin.browser.request("POST", "/account/activity", form({ intent: "end-all-sessions" })),
      await admin.browser.request("POST", "/account/profile", form({ intent: "update-profile", name: "Renamed By Admin" })),
    ];
    for (const refused of pageRefusals) {
      expect(refused.status).toBe(403);
      expect(refused.text).toContain("You are acting as this person");
    }
    // Nothing happened in the owner's name: signed in still, no alarm recorded (nor its reset mail), same name.
    expect(await liveSessions(ownerId)).toBe(1);
    expect((await owner.get("/api/auth/get-session")).body?.user).toMatchObject({ id: ownerId, name: "Olive Owner" });
    expect((await eventsOf(ownerId)).map((event) => event.type)).not.toContain("sessions_ended_by_owner");
    expect((await admin.browser.get("/api/auth/get-session")).body?.session.impersonatedBy).toBe(admin.id);
  });

  it("what the admin does is recorded as the admin's, whatever records it; the owner's own acts stay the owner's", async () => {
    const { owner, ownerId, ownerEmail, admin } = await impersonating();
    // Allowed while impersonating: ending the owner's other sessions (API), then signing out (a page).
    expect((await admin.browser.post("/api/auth/revoke-other-sessions", {})).status).toBe(200);
    const signedOut = await admin.browser.request("POST", "/account/activity", form({ intent: "sign-out" }));
    expect(signedOut.status, signedOut.text).toBe(302);
    const byType = async (type: string) => (await eventsOf(ownerId)).filter((event) => event.type === type).map((event) => event.actorUserId);
    expect(await byType("session_revoked")).toEqual([admin.id]);
    expect(await byType("sign_out")).toEqual([admin.id]);
    expect(await byType("impersonation_started")).toEqual([admin.id]);
    expect(await byType("sign_in")).toEqual([null]);
    // The owner, signed out by the admin, signs in again and signs out themselves: theirs.
    expect((await signIn(owner, ownerEmail)).status).toBe(200);
    expect((await owner.post("/api/auth/sign-out", {})).status).toBe(200);
    expect(await byType("sign_out")).toEqual([admin.id, null]);
    expect(await byType("sign_in")).toEqual([null, null]);
  });

  it("the owner reads the admin's acts as an administrator's, without the admin's address and browser; the console keeps them", async () => {
    const { owner, ownerId, ownerEmail, admin } = await impersonating();
    expect((await admin.browser.post("/api/auth/revoke-other-sessions", {})).status).toBe(200);
    expect((await admin.browser.post("/api/auth/admin/stop-impersonating", {})).status).toBe(200);
    const started = (await eventsOf(ownerId)).find((event) => event.type === "impersonation_started")!;
    expect(started.actorUserId).toBe(admin.id);

    expect((await signIn(owner, ownerEmail)).status).toBe(200);
    const page = await owner.get("/account/activity");
    expect(page.status).toBe(200);
    const rows = [...page.text.matchAll(/<li[^>]*data-testid="activity-row"[^>]*>([\s\S]*?)<\/li>/g)].map((match) => match[1].replace(/<[^>]+>/g, ""));
    const byAdmin = rows.filter((row) => /administrator/.test(row));
    expect(byAdmin.map((row) => row.split(" — ")[0]).sort(), rows.join("\n")).toEqual([
      "An administrator started acting as you",
      "An administrator stopped acting as you",
      "Signed out on the other devices",
    ]);
    for (const row of byAdmin) {
      expect(row).not.toContain("Firefox");
      if (started.ipAddress) expect(row).not.toContain(started.ipAddress);
    }
    // Said once: where the sentence names no administrator, the row does.
    expect(byAdmin.filter((row) => row.includes("by an administrator")).map((row) => row.split(" — ")[0])).toEqual(["Signed out on the other devices"]);
    expect(rows.filter((row) => row.startsWith("Signed in")).every((row) => row.includes("Chrome on Linux"))).toBe(true);
    const listed = await owner.get("/api/auth/list-security-events?limit=100");
    const fromAdmin = listed.body.events.filter((event: { byAdministrator: boolean }) => event.byAdministrator);
    expect(fromAdmin.map((event: { type: string }) => event.type).sort()).toEqual(["impersonation_started", "impersonation_stopped", "session_revoked"]);
    for (const event of fromAdmin) expect(event).toMatchObject({ ipAddress: null, userAgent: null, device: null });
    expect(listed.body.events.find((event: { type: string }) => event.type === "sign_in")).toMatchObject({ byAdministrator: false, device: "Chrome on Linux" });
    // The admin's own record of it is theirs to read in full.
    const adminsOwn = await admin.browser.get("/api/auth/list-security-events?limit=100");
    expect(adminsOwn.body.events.find((event: { type: string }) => event.type === "impersonation_started")).toMatchObject({ byAdministrator: false, device: "Firefox on Windows" });

    // Operators keep the admin's details: the console's view of the account names the admin and their browser.
    const view = await admin.browser.get(`/admin/users/${ownerId}`);
    expect(view.status).toBe(200);
    expect(shownText(view.text)).toContain(`(by ${admin.email})`);
    expect(view.text).toContain("Firefox on Windows");
  });
});

describe("GET /api/auth/token while impersonating (issue 38 item 7)", () => {
  it("is the user's token, marked with the admin as actor (RFC 8693 `act`); the owner's own has no mark", async () => {
    const { owner, ownerId, admin } = await impersonating();
    const marked = await admin.browser.get("/api/auth/token");
    expect(marked.status, marked.text).toBe(200);
    const keys = jose.createLocalJWKSet((await new ApiClient(server.baseUrl).get("/api/auth/jwks")).body);
    const origin = new URL(server.baseUrl).origin;
    const { payload } = await jose.jwtVerify(marked.body.token, keys, { issuer: origin, audience: origin });
    expect(payload.sub).toBe(ownerId);
    expect(payload.act).toEqual({ sub: admin.id });
    const own = jose.decodeJwt((await owner.get("/api/auth/token")).body.token);
    expect(own.sub).toBe(ownerId);
    expect(own.act).toBeUndefined();
  });
});

describe("pushed authorization requests (issue 38 item 8)", () => {
  it("discovery names an endpoint under /api/auth/oauth2 that takes a client's request, and authorize accepts its request_uri", async () => {
    const discovery = await new ApiClient(server.baseUrl).get("/.well-known/openid-configuration");
    const endpoint: string = discovery.body.pushed_authorization_request_endpoint;
    expect(endpoint).toBe(`${server.baseUrl.replace(/\/$/, "")}/api/auth/oauth2/par`);
    // Nothing discovery names lies outside the provider's mount (a feature's default path would answer 404).
    const named = Object.entries(discovery.body).filter(([key, value]) => /_(endpoint|uri)$/.test(key) && typeof value === "string");
    expect(named.length).toBeGreaterThanOrEqual(8);
    for (const [key, value] of named) expect(value, key).toMatch(new RegExp(`^${server.baseUrl.replace(/\/$/, "")}/api/auth/oauth2/`));

    const app = await registerClient(server.database, { name: "Pushed App", trusted: true });
    const verifier = oidc.randomPKCECodeVerifier();
    const fields = { client_id: app.clientId, response_type: "code", scope: "openid email", redirect_uri: app.redirectUri, code_challenge: await oidc.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state: "st4te" };
    const push = (secret: string) =>
      fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Basic ${Buffer.from(`${app.clientId}:${secret}`).toString("base64")}` },
        body: new URLSearchParams(fields),
      });
    const wrong = await push("not the secret");
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toMatchObject({ error: "invalid_client" });
    const pushed = await push(app.clientSecret!);
    expect(pushed.status).toBe(201);
    const { request_uri: requestUri, expires_in: expiresIn } = (await pushed.json()) as { request_uri: string; expires_in: number };
    expect(requestUri).toMatch(/^urn:ietf:params:oauth:request_uri:/);
    expect(expiresIn).toBeGreaterThan(0);

    // A signed-in person's browser follows the short authorize URL; the trusted application gets its code.
    const person = new Browser(CHROME_ON_LINUX);
    const account = await signUp(person, { name: "Pat Pushed" });
    let at = new URL(`${discovery.body.authorization_endpoint}?${new URLSearchParams({ client_id: app.clientId, request_uri: requestUri })}`);
    for (let hops = 0; hops < 10 && at.origin === new URL(server.baseUrl).origin; hops++) {
      const answer = await person.get(at.pathname + at.search);
      expect(answer.status, answer.text.slice(0, 300)).toBeGreaterThanOrEqual(300);
      at = new URL(answer.headers.get("location")!, at);
    }
    expect(at.origin + at.pathname).toBe(app.redirectUri);
    expect(at.searchParams.get("state")).toBe("st4te");
    const config = await relyingParty(app, server.baseUrl);
    const tokens = await oidc.authorizationCodeGrant(config, at, { pkceCodeVerifier: verifier, expectedState: "st4te" });
    expect(tokens.claims()?.sub).toBe(account.user.id);
    // A request_uri is used once.
    const reused = await person.get(`/api/auth/oauth2/authorize?${new URLSearchParams({ client_id: app.clientId, request_uri: requestUri })}`);
    expect(new URL(reused.headers.get("location") ?? "http://x/", server.baseUrl).searchParams.get("code")).toBeNull();
  });
});
