// What the enterprise SSO tests share (issue 43): a server trusting a local OpenID provider (oauth2-mock-server on
// loopback, listed in SSO_TRUSTED_IDP_ORIGINS) and answering its domain proofs from a DNS stub; organizations,
// members and connections made through the API.
import { OAuth2Server } from "oauth2-mock-server";
import { expect } from "vitest";
import { ApiClient, signUp } from "./client";
import { startDnsStub, type DnsStub } from "./dns-stub";
import { startServer, type TestServer } from "./server";
import { query } from "./sql";

export interface SsoWorld {
  server: TestServer;
  idp: OAuth2Server;
  /** The IdP's issuer (http://localhost:port). */
  issuer: string;
  dns: DnsStub;
  /** What the IdP vouches for in the next ID token and userinfo answer. */
  claims: Record<string, unknown>;
  stop(): Promise<void>;
}

export async function startSsoWorld(env: Record<string, string> = {}): Promise<SsoWorld> {
  const idp = new OAuth2Server();
  await idp.issuer.keys.generate("RS256");
  await idp.start(0, "localhost");
  const dns = await startDnsStub();
  const issuer = idp.issuer.url!;
  const world: SsoWorld = {
    idp,
    issuer,
    dns,
    claims: {},
    server: await startServer({ env: { SSO_TRUSTED_IDP_ORIGINS: new URL(issuer).origin, SSO_DNS_SERVERS: dns.address, ...env } }),
    async stop() {
      await world.server.stop();
      await idp.stop();
      await dns.stop();
    },
  };
  idp.service.on("beforeTokenSigning", (token) => Object.assign(token.payload, world.claims));
  idp.service.on("beforeUserinfo", (response) => void (response.body = { ...world.claims }));
  return world;
}

let counter = 0;
export const uniqueSlug = (prefix = "acme") => `${prefix}-${Date.now().toString(36)}-${++counter}`;
/** A domain of its own for each test (the proof and the routing are per domain). */
export const uniqueDomain = (prefix = "corp") => `${uniqueSlug(prefix)}.example.com`;

export interface Person {
  client: ApiClient;
  id: string;
  email: string;
}

export async function person(server: TestServer, email?: string): Promise<Person> {
  const client = new ApiClient(server.baseUrl);
  const { user } = await signUp(client, email ? { email } : {});
  return { client, id: user.id, email: user.email };
}

export async function createOrganization(owner: Person, slug = uniqueSlug()) {
  const response = await owner.client.post("/api/auth/organization/create", { name: `Team ${slug}`, slug });
  expect(response.status, response.text).toBe(200);
  return response.body as { id: string; slug: string };
}

/** Straight into the database: invitations are tested elsewhere. */
export async function addMember(server: TestServer, organizationId: string, who: Person, role: string) {
  await query(server.database, `INSERT INTO "member" ("id", "organizationId", "userId", "role", "createdAt") VALUES (?, ?, ?, ?, ?)`, [
    `m-${Math.random().toString(36).slice(2)}`,
    organizationId,
    who.id,
    role,
    server.database.kind === "sqlite" ? Date.now() : new Date(),
  ]);
}

export const CLIENT_ID = "sso-test-client";
export const CLIENT_SECRET = "sso-test-client-secret";

export function oidcRegistration(world: SsoWorld, organizationId: string, overrides: Record<string, unknown> = {}) {
  return {
    providerId: uniqueSlug("okta").replace(/[^A-Za-z0-9_-]/g, "-"),
    issuer: world.issuer,
    domain: uniqueDomain(),
    organizationId,
    oidcConfig: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET },
    ...overrides,
  };
}

/** Registers an OIDC connection as `admin`; returns the register answer. */
export async function registerOidc(world: SsoWorld, admin: Person, organizationId: string, overrides: Record<string, unknown> = {}) {
  const response = await admin.client.post("/api/auth/sso/register", oidcRegistration(world, organizationId, overrides));
  expect(response.status, response.text).toBe(200);
  return response.body as { providerId: string; domain: string; domainVerificationToken: string; redirectURI: string };
}

/** Publishes the connection's TXT record for each of its domains in the DNS stub and proves it. */
export async function proveDomain(world: SsoWorld, admin: Person, provider: { providerId: string; domain: string; domainVerificationToken: string }) {
  for (const domain of provider.domain.split(",")) {
    world.dns.records.set(`_better-auth-token-${provider.providerId}.${domain}`.toLowerCase(), [`_better-auth-token-${provider.providerId}=${provider.domainVerificationToken}`]);
  }
  const response = await admin.client.post("/api/auth/sso/verify-domain", { providerId: provider.providerId });
  expect(response.status, response.text).toBe(204);
}
