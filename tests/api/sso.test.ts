// Enterprise SSO connections (issue 43): registering an OIDC connection with discovery and its checks, who may
// manage connections, the sanitized lists, removal, request forgery, and the DNS proof of the domain.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, shownText } from "../support/client";
import { count, query } from "../support/sql";
import {
  addMember,
  CLIENT_SECRET,
  createOrganization,
  oidcRegistration,
  person,
  proveDomain,
  registerOidc,
  startSsoWorld,
  uniqueDomain,
  type Person,
  type SsoWorld,
} from "../support/sso";

let world: SsoWorld;
let owner: Person;
let organizationId: string;

beforeAll(async () => {
  world = await startSsoWorld();
  owner = await person(world.server);
  organizationId = (await createOrganization(owner)).id;
});
afterAll(async () => {
  await world?.stop();
});

/** An identity linked through a connection, straight into the database (sign-in through it is tested elsewhere). */
const linkIdentity = async (userId: string, providerId: string, sub: string) =>
  query(world.server.database, `INSERT INTO "account" ("id", "userId", "providerId", "accountId", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)`, [
    `a-${sub}-${providerId}`,
    userId,
    providerId,
    sub,
    world.server.database.kind === "sqlite" ? Date.now() : new Date(),
    world.server.database.kind === "sqlite" ? Date.now() : new Date(),
  ]);

describe("POST /sso/register", () => {
  it("stores an OIDC connection with the discovered endpoints and answers it with its domain token and redirect URI, never the secret", async () => {
    const body = oidcRegistration(world, organizationId, { domain: "Example-One.test, sub.example-two.test" });
    const response = await owner.client.post("/api/auth/sso/register", body);
    expect(response.status, response.text).toBe(200);
    expect(response.body).toMatchObject({
      providerId: body.providerId,
      issuer: world.issuer,
      domain: "example-one.test,sub.example-two.test",
      organizationId,
      userId: owner.id,
      domainVerified: false,
      redirectURI: `${world.server.baseUrl}/api/auth/sso/callback/${body.providerId}`,
      oidcConfig: {
        clientId: "sso-test-client",
        authorizationEndpoint: `${world.issuer}/authorize`,
        tokenEndpoint: `${world.issuer}/token`,
        jwksEndpoint: `${world.issuer}/jwks`,
        userInfoEndpoint: `${world.issuer}/userinfo`,
        scopes: ["openid", "email", "profile"],
        pkce: true,
      },
    });
    expect(response.body.domainVerificationToken).toMatch(/^[A-Za-z0-9]{24,}$/);
    expect(response.text).not.toContain(CLIENT_SECRET);
    // Stored encrypted with AUTH_SECRET.
    const [row] = await query<{ oidcConfig: string }>(world.server.database, `SELECT "oidcConfig" FROM "ssoProvider" WHERE "providerId" = ?`, [body.providerId]);
    expect(row.oidcConfig).not.toContain(CLIENT_SECRET);
    expect(JSON.parse(row.oidcConfig).clientSecret).toBeTruthy();
  });

  it("answers 401 signed out, 400 without organizationId, 400 for a non-member, 403 for a plain member", async () => {
    const body = oidcRegistration(world, organizationId);
    expect((await new ApiClient(world.server.baseUrl).post("/api/auth/sso/register", body)).status).toBe(401);
    const { organizationId: _dropped, ...personal } = body;
    const without = await owner.client.post("/api/auth/sso/register", personal);
    expect(without.status).toBe(400);
    expect(without.body.code).toBe("ORGANIZATIONID_IS_REQUIRED");

    const stranger = await person(world.server);
    const notMember = await stranger.client.post("/api/auth/sso/register", body);
    expect(notMember.status).toBe(400);
    expect(notMember.body).toEqual({ code: "YOU_ARE_NOT_A_MEMBER_OF_THE_ORGANIZATION", message: "You are not a member of the organization" });

    const member = await person(world.server);
    await addMember(world.server, organizationId, member, "member");
    const plain = await member.client.post("/api/auth/sso/register", body);
    expect(plain.status).toBe(403);
    expect(plain.body.message).toBe("You must be an organization owner or admin to register SSO providers");

    const admin = await person(world.server);
    await addMember(world.server, organizationId, admin, "admin");
    expect((await admin.client.post("/api/auth/sso/register", body)).status).toBe(200);
  });

  it("refuses a taken or built-in providerId with 422, and a malformed one with 400", async () => {
    const first = await registerOidc(world, owner, organizationId);
    for (const providerId of [first.providerId, "credential", "google", "GitHub", "oidc", "email-otp"]) {
      const response = await owner.client.post("/api/auth/sso/register", oidcRegistration(world, organizationId, { providerId }));
      expect(response.status, providerId).toBe(422);
      expect(response.body.code).toBe("SSO_PROVIDER_WITH_THIS_PROVIDERID_ALREADY_EXISTS");
    }
    for (const providerId of ["a.b", "has space", "x".repeat(45), ""]) {
      const response = await owner.client.post("/api/auth/sso/register", oidcRegistration(world, organizationId, { providerId }));
      expect(response.status, providerId).toBe(400);
    }
    for (const domain of ["not a domain", "localhost", "a..b.com", "http://example.com"]) {
      const response = await owner.client.post("/api/auth/sso/register", oidcRegistration(world, organizationId, { domain }));
      expect(response.status, domain).toBe(400);
    }
  });

  it("answers discovery failures with 400 and Better Auth's codes, storing nothing", async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ issuer: `${world.issuer}/other` }, "discovery_not_found"],
      [{ oidcConfig: { clientId: "c", clientSecret: "s", discoveryEndpoint: `${world.issuer}/jwks` } }, "issuer_mismatch"],
      [{ oidcConfig: { clientId: "c", clientSecret: "s", skipDiscovery: true, authorizationEndpoint: `${world.issuer}/authorize` } }, "discovery_incomplete"],
    ];
    for (const [overrides, code] of cases) {
      const body = oidcRegistration(world, organizationId, overrides);
      const response = await owner.client.post("/api/auth/sso/register", body);
      expect(response.status, code).toBe(400);
      expect(response.body.code).toBe(code);
      expect(await count(world.server.database, "ssoProvider", `"providerId" = ?`, [body.providerId])).toBe(0);
    }
  });

  it("refuses IdP URLs on loopback, private, link-local and metadata hosts before any connection (no request forgery)", async () => {
    // "vm" is a name that resolves to 127.0.0.1 here (/etc/hosts): refused on the resolved address.
    for (const issuer of ["http://127.0.0.2:9", "http://169.254.169.254", "http://[::1]:9", "http://10.1.2.3", "http://metadata.google.internal", "http://vm:9", "http://localhost:9"]) {
      const response = await owner.client.post("/api/auth/sso/register", oidcRegistration(world, organizationId, { issuer }));
      expect(response.status, issuer).toBe(400);
      expect(response.body.code, issuer).toBe("discovery_private_host");
    }
    // Endpoints given without discovery (never fetched at registration) are checked all the same.
    for (const tokenEndpoint of ["http://vm:9/token", "http://10.0.0.7/token", "http://[fd00:ec2::254]/token"]) {
      const skipped = await owner.client.post(
        "/api/auth/sso/register",
        oidcRegistration(world, organizationId, {
          oidcConfig: { clientId: "c", clientSecret: "s", skipDiscovery: true, authorizationEndpoint: `${world.issuer}/authorize`, tokenEndpoint, jwksEndpoint: `${world.issuer}/jwks` },
        }),
      );
      expect(skipped.status, tokenEndpoint).toBe(400);
      expect(skipped.body.code, tokenEndpoint).toBe("discovery_private_host");
    }
    // Redirects are never followed (the mock IdP's end-session endpoint answers 302).
    const redirecting = await owner.client.post(
      "/api/auth/sso/register",
      oidcRegistration(world, organizationId, { oidcConfig: { clientId: "c", clientSecret: "s", discoveryEndpoint: `${world.issuer}/endsession?post_logout_redirect_uri=${encodeURIComponent("https://example.com/")}` } }),
    );
    expect(redirecting.status, redirecting.text).toBe(400);
    expect(redirecting.body.code).toBe("oidc_endpoint_redirect");
    // A trusted origin's endpoints are fine, another port on the same host is not.
    const sideDoor = `http://localhost:${Number(new URL(world.issuer).port) + 1}`;
    const response = await owner.client.post(
      "/api/auth/sso/register",
      oidcRegistration(world, organizationId, { oidcConfig: { clientId: "c", clientSecret: "s", skipDiscovery: false, discoveryEndpoint: `${sideDoor}/.well-known/openid-configuration` } }),
    );
    expect(response.status).toBe(400);
    expect(response.body.code).toBe("discovery_private_host");
  });

  it("holds an organization to SSO_PROVIDERS_LIMIT connections, even when registered at once", async () => {
    const limited = await startSsoWorld({ SSO_PROVIDERS_LIMIT: "3" });
    try {
      const boss = await person(limited.server);
      const org = (await createOrganization(boss)).id;
      const answers = await Promise.all(Array.from({ length: 5 }, () => boss.client.post("/api/auth/sso/register", oidcRegistration(limited, org))));
      expect(answers.filter((a) => a.status === 200)).toHaveLength(3);
      expect(answers.filter((a) => a.status === 403).map((a) => a.body.code)).toEqual(Array(2).fill("YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_SSO_PROVIDERS"));
      expect(await count(limited.server.database, "ssoProvider", `"organizationId" = ?`, [org])).toBe(3);
    } finally {
      await limited.stop();
    }
  });
});

describe("reading and removing connections", () => {
  it("lists the sanitized connections of organizations the caller owns or administers, and nobody else's", async () => {
    const provider = await registerOidc(world, owner, organizationId);
    const list = await owner.client.get("/api/auth/sso/providers");
    expect(list.status).toBe(200);
    const mine = list.body.providers.find((p: { providerId: string }) => p.providerId === provider.providerId);
    expect(mine).toEqual({
      providerId: provider.providerId,
      type: "oidc",
      issuer: world.issuer,
      domain: provider.domain,
      organizationId,
      domainVerified: false,
      oidcConfig: expect.objectContaining({ clientIdLastFour: "****ient", pkce: true, tokenEndpoint: `${world.issuer}/token` }),
      spMetadataUrl: `${world.server.baseUrl}/api/auth/sso/saml2/sp/metadata?providerId=${provider.providerId}`,
    });
    expect(list.text).not.toContain(CLIENT_SECRET);
    expect(list.text).not.toContain("clientSecret");

    const one = await owner.client.get(`/api/auth/sso/get-provider?providerId=${provider.providerId}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(mine);

    const member = await person(world.server);
    await addMember(world.server, organizationId, member, "member");
    expect((await member.client.get("/api/auth/sso/providers")).body.providers).toEqual([]);
    expect((await member.client.get(`/api/auth/sso/get-provider?providerId=${provider.providerId}`)).status).toBe(403);
    expect((await owner.client.get("/api/auth/sso/get-provider?providerId=nope")).status).toBe(404);
    expect((await new ApiClient(world.server.baseUrl).get("/api/auth/sso/providers")).status).toBe(401);
  });

  it("removes a connection for its organization's owners and admins only, with the identities linked through it", async () => {
    const provider = await registerOidc(world, owner, organizationId);
    const linked = await person(world.server);
    await linkIdentity(linked.id, provider.providerId, "sub-1");
    const member = await person(world.server);
    await addMember(world.server, organizationId, member, "member");
    expect((await member.client.post("/api/auth/sso/delete-provider", { providerId: provider.providerId })).status).toBe(403);

    const removed = await owner.client.post("/api/auth/sso/delete-provider", { providerId: provider.providerId });
    expect(removed.status).toBe(200);
    expect(removed.body).toEqual({ success: true });
    expect(await count(world.server.database, "ssoProvider", `"providerId" = ?`, [provider.providerId])).toBe(0);
    expect(await count(world.server.database, "account", `"providerId" = ?`, [provider.providerId])).toBe(0);
    expect(await count(world.server.database, "user", `"id" = ?`, [linked.id])).toBe(1);
    expect((await owner.client.post("/api/auth/sso/delete-provider", { providerId: provider.providerId })).status).toBe(404);
  });
});

describe("proving the domain by DNS TXT", () => {
  it("gives the live token again (201), verifies once every domain carries the record (204), then answers 409", async () => {
    const domains = `${uniqueDomain()},${uniqueDomain()}`;
    const provider = await registerOidc(world, owner, organizationId, { domain: domains });
    const again = await owner.client.post("/api/auth/sso/request-domain-verification", { providerId: provider.providerId });
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ domainVerificationToken: provider.domainVerificationToken });

    // One domain only: not proven.
    const [first, second] = domains.split(",");
    world.dns.records.set(`_better-auth-token-${provider.providerId}.${first}`.toLowerCase(), [`_better-auth-token-${provider.providerId}=${provider.domainVerificationToken}`]);
    const half = await owner.client.post("/api/auth/sso/verify-domain", { providerId: provider.providerId });
    expect(half.status).toBe(502);
    expect(half.body.code).toBe("DOMAIN_VERIFICATION_FAILED");
    expect(world.dns.asked).toContain(`${`_better-auth-token-${provider.providerId}.${second}`.toLowerCase()} TXT`);

    // A wrong value does not count; the bare token does.
    world.dns.records.set(`_better-auth-token-${provider.providerId}.${second}`.toLowerCase(), ["_better-auth-token-other=nope"]);
    expect((await owner.client.post("/api/auth/sso/verify-domain", { providerId: provider.providerId })).status).toBe(502);
    world.dns.records.set(`_better-auth-token-${provider.providerId}.${second}`.toLowerCase(), ["v=spf1 -all", provider.domainVerificationToken]);
    const proven = await owner.client.post("/api/auth/sso/verify-domain", { providerId: provider.providerId });
    expect(proven.status, proven.text).toBe(204);
    const read = await owner.client.get(`/api/auth/sso/get-provider?providerId=${provider.providerId}`);
    expect(read.body.domainVerified).toBe(true);

    for (const path of ["verify-domain", "request-domain-verification"]) {
      const response = await owner.client.post(`/api/auth/sso/${path}`, { providerId: provider.providerId });
      expect(response.status, path).toBe(409);
      expect(response.body.code).toBe("DOMAIN_VERIFIED");
    }
  });

  it("answers 404 NO_PENDING_VERIFICATION without a live token, 403 for plain members, 404 for unknown connections", async () => {
    const provider = await registerOidc(world, owner, organizationId);
    const member = await person(world.server);
    await addMember(world.server, organizationId, member, "member");
    expect((await member.client.post("/api/auth/sso/verify-domain", { providerId: provider.providerId })).status).toBe(403);
    expect((await member.client.post("/api/auth/sso/request-domain-verification", { providerId: provider.providerId })).status).toBe(403);
    expect((await owner.client.post("/api/auth/sso/verify-domain", { providerId: "unknown-one" })).status).toBe(404);

    await query(world.server.database, `UPDATE "verification" SET "expiresAt" = ? WHERE "identifier" = ?`, [
      world.server.database.kind === "sqlite" ? Date.now() - 1000 : new Date(Date.now() - 1000),
      `sso-domain-token:${provider.providerId}`,
    ]);
    const expired = await owner.client.post("/api/auth/sso/verify-domain", { providerId: provider.providerId });
    expect(expired.status).toBe(404);
    expect(expired.body.code).toBe("NO_PENDING_VERIFICATION");
    // Asking again issues a new one, which then proves it.
    const fresh = await owner.client.post("/api/auth/sso/request-domain-verification", { providerId: provider.providerId });
    expect(fresh.status).toBe(201);
    expect(fresh.body.domainVerificationToken).not.toBe(provider.domainVerificationToken);
    await proveDomain(world, owner, { ...provider, domainVerificationToken: fresh.body.domainVerificationToken });
  });
});

describe("a connection's security events", () => {
  it("are recorded on the actor's account when a connection is added, proven and removed, never with a secret", async () => {
    const boss = await person(world.server);
    const organization = await createOrganization(boss);
    const provider = await registerOidc(world, boss, organization.id);
    await proveDomain(world, boss, provider);
    expect((await boss.client.post("/api/auth/sso/delete-provider", { providerId: provider.providerId })).status).toBe(200);
    const rows = await query<{ type: string; details: string; sessionId: string | null }>(
      world.server.database,
      `SELECT "type", "details", "sessionId" FROM "securityEvent" WHERE "userId" = ? AND "type" LIKE 'sso_%' ORDER BY "createdAt", "id"`,
      [boss.id],
    );
    expect(rows.map((row) => row.type).sort()).toEqual(["sso_connection_added", "sso_connection_removed", "sso_domain_verified"]);
    for (const row of rows) {
      expect(JSON.parse(row.details)).toEqual({
        organizationId: organization.id,
        organizationName: expect.any(String),
        providerId: provider.providerId,
        protocol: "oidc",
        domain: provider.domain,
      });
      expect(row.details).not.toContain(CLIENT_SECRET);
      expect(row.sessionId).not.toBeNull();
    }
    const activity = await boss.client.get("/account/activity");
    expect(shownText(activity.text)).toContain(`Single sign-on connection “${provider.providerId}” (OpenID Connect, ${provider.domain}) added to`);
  });
});

describe("POST /sso/update-provider", () => {
  it("changes a connection partly: a new domain is unproven again with a new token; a new secret is sealed", async () => {
    const provider = await registerOidc(world, owner, organizationId);
    await proveDomain(world, owner, provider);
    const domain = uniqueDomain("moved");
    const updated = await owner.client.post("/api/auth/sso/update-provider", { providerId: provider.providerId, domain, oidcConfig: { clientSecret: "rotated-secret" } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ providerId: provider.providerId, domain, domainVerified: false });
    expect(updated.text).not.toContain("rotated-secret");
    const [row] = await query<{ oidcConfig: string }>(world.server.database, `SELECT "oidcConfig" FROM "ssoProvider" WHERE "providerId" = ?`, [provider.providerId]);
    expect(row.oidcConfig).not.toContain("rotated-secret");
    const token = await owner.client.post("/api/auth/sso/request-domain-verification", { providerId: provider.providerId });
    expect(token.status).toBe(201);
    expect(token.body.domainVerificationToken).not.toBe(provider.domainVerificationToken);

    const member = await person(world.server);
    await addMember(world.server, organizationId, member, "member");
    expect((await member.client.post("/api/auth/sso/update-provider", { providerId: provider.providerId, domain })).status).toBe(403);
  });

  it("refuses to change what identifies the IdP once someone is linked through it (409), but lets the secret rotate", async () => {
    const provider = await registerOidc(world, owner, organizationId);
    const linked = await person(world.server);
    await query(world.server.database, `INSERT INTO "account" ("id", "userId", "providerId", "accountId", "createdAt", "updatedAt") VALUES (?, ?, ?, ?, ?, ?)`, [
      `a-${provider.providerId}`,
      linked.id,
      provider.providerId,
      "sub-linked",
      world.server.database.kind === "sqlite" ? Date.now() : new Date(),
      world.server.database.kind === "sqlite" ? Date.now() : new Date(),
    ]);
    for (const change of [{ oidcConfig: { clientId: "another-client" } }, { oidcConfig: { tokenEndpoint: `${world.issuer}/token2` } }]) {
      const refused = await owner.client.post("/api/auth/sso/update-provider", { providerId: provider.providerId, ...change });
      expect(refused.status, JSON.stringify(change)).toBe(409);
      expect(refused.body.message).toBe("Cannot change SSO provider identity fields while linked accounts exist");
    }
    const rotated = await owner.client.post("/api/auth/sso/update-provider", { providerId: provider.providerId, oidcConfig: { clientSecret: "next-secret" } });
    expect(rotated.status).toBe(200);
    // Before anyone is linked, the client id may change.
    const fresh = await registerOidc(world, owner, organizationId);
    const changed = await owner.client.post("/api/auth/sso/update-provider", { providerId: fresh.providerId, oidcConfig: { clientId: "another-client-id" } });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.oidcConfig.clientIdLastFour).toBe("****t-id");
  });
});

describe("a connection's identities when it goes", () => {
  const versionOf = async (userId: string) =>
    Number((await query<{ v: number }>(world.server.database, `SELECT "credentialsVersion" AS "v" FROM "user" WHERE "id" = ?`, [userId]))[0].v);

  it("end with its organization's deletion, through the one revocation; the people and their accounts stay", async () => {
    const boss = await person(world.server);
    const doomed = (await createOrganization(boss)).id;
    const provider = await registerOidc(world, boss, doomed);
    const linked = await person(world.server);
    await linkIdentity(linked.id, provider.providerId, "sub-old");
    const before = await versionOf(linked.id);
    const deleted = await boss.client.post("/api/auth/organization/delete", { organizationId: doomed });
    expect(deleted.status, deleted.text).toBe(200);
    expect(await count(world.server.database, "ssoProvider", `"providerId" = ?`, [provider.providerId])).toBe(0);
    expect(await count(world.server.database, "account", `"providerId" = ?`, [provider.providerId])).toBe(0);
    // A sign-in through the connection in flight starts no session (ADR 055).
    expect(await versionOf(linked.id)).toBe(before + 1);
    expect(await count(world.server.database, "user", `"id" = ?`, [linked.id])).toBe(1);
  });

  it("end with its removal, through the one revocation, and an id used again inherits none", async () => {
    const provider = await registerOidc(world, owner, organizationId);
    const [first, second] = [await person(world.server), await person(world.server)];
    await linkIdentity(first.id, provider.providerId, "sub-1");
    await linkIdentity(second.id, provider.providerId, "sub-2");
    const before = await versionOf(second.id);
    const removed = await owner.client.post("/api/auth/sso/delete-provider", { providerId: provider.providerId });
    expect(removed.status, removed.text).toBe(200);
    expect(await count(world.server.database, "account", `"providerId" = ?`, [provider.providerId])).toBe(0);
    expect(await versionOf(second.id)).toBe(before + 1);
    // A row of that id left behind (linked in the moment its connection went) is never inherited.
    await linkIdentity(first.id, provider.providerId, "sub-late");
    await registerOidc(world, owner, organizationId, { providerId: provider.providerId });
    expect(await count(world.server.database, "account", `"providerId" = ?`, [provider.providerId])).toBe(0);
  });
});
