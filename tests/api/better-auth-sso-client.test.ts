// Better Auth's official client with its SSO plugin (`ssoClient()` of @better-auth/sso 1.7.5) against this
// server, unchanged: register a connection, read it back, prove the domain, sign in through the IdP, remove it.
// The plugin lives in tests/compat/better-auth-sso with its own lock file (npm will not install it beside
// better-auth 1.7.25); without `npm ci` there, this file skips with a message, except under CI=true, where it fails.
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { browserFetch } from "../support/better-auth";
import { CLIENT_ID, CLIENT_SECRET, createOrganization, person, startSsoWorld, uniqueDomain, uniqueSlug, type SsoWorld } from "../support/sso";

const compat = path.join(import.meta.dirname, "..", "compat", "better-auth-sso");
const installed = existsSync(path.join(compat, "node_modules", "@better-auth", "sso"));
if (!installed) {
  const message = `[latchkey] skipping the official SSO client test: run \`npm ci --prefix ${path.relative(process.cwd(), compat)}\` first`;
  if (process.env.CI === "true") throw new Error(message);
  console.warn(message);
}

let world: SsoWorld;
beforeAll(async () => {
  if (installed) world = await startSsoWorld();
});
afterAll(async () => {
  await world?.stop();
});

const COMPAT_ENTRY: string = "../compat/better-auth-sso/index.ts";

async function officialClient(jar: ApiClient) {
  // A specifier the typecheck does not follow: that folder's packages exist only after its own `npm ci`.
  const { createAuthClient, ssoClient } = await import(/* @vite-ignore */ COMPAT_ENTRY);
  const { customFetchImpl } = browserFetch(world.server, jar);
  return createAuthClient({ baseURL: world.server.baseUrl, plugins: [ssoClient()], fetchOptions: { customFetchImpl } });
}

describe.runIf(installed)("ssoClient() of @better-auth/sso 1.7.5", () => {
  it("registers, lists, proves, signs in through and removes a connection", async () => {
    const owner = await person(world.server);
    const organizationId = (await createOrganization(owner)).id;
    const client = await officialClient(owner.client);
    const providerId = uniqueSlug("client");
    const domain = uniqueDomain("client");

    const registered = await client.sso.register({ providerId, issuer: world.issuer, domain, organizationId, oidcConfig: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } });
    expect(registered.error).toBeNull();
    expect(registered.data).toMatchObject({ providerId, domain, organizationId, domainVerified: false, redirectURI: `${world.server.baseUrl}/api/auth/sso/callback/${providerId}` });

    const listed = await client.sso.providers();
    expect(listed.error).toBeNull();
    expect(listed.data.providers.map((p: { providerId: string }) => p.providerId)).toContain(providerId);
    const one = await client.sso.getProvider({ query: { providerId } });
    expect(one.data).toMatchObject({ providerId, type: "oidc", oidcConfig: { clientIdLastFour: "****ient" } });

    // Proving the domain: the same token again, then the TXT record is found.
    const token = await client.sso.requestDomainVerification({ providerId });
    expect(token.data).toEqual({ domainVerificationToken: registered.data.domainVerificationToken });
    world.dns.records.set(`_better-auth-token-${providerId}.${domain}`, [`_better-auth-token-${providerId}=${token.data.domainVerificationToken}`]);
    const verified = await client.sso.verifyDomain({ providerId });
    expect(verified.error).toBeNull();
    const again = await client.sso.verifyDomain({ providerId });
    expect(again.error).toMatchObject({ status: 409, code: "DOMAIN_VERIFIED" });

    // Signing in: the client answers the IdP's URL; the browser goes there and comes back signed in.
    const email = `grace@${domain}`;
    world.claims = { sub: `sub-${email}`, email, email_verified: true, name: "Grace Hopper" };
    const jar = new ApiClient(world.server.baseUrl);
    const visitor = await officialClient(jar);
    const started = await visitor.signIn.sso({ email, callbackURL: "/account" });
    expect(started.error).toBeNull();
    expect(started.data.redirect).toBe(true);
    const callback = (await fetch(started.data.url, { redirect: "manual" })).headers.get("location")!;
    expect((await jar.get(callback)).headers.get("location")).toBe(`${world.server.baseUrl}/account`);
    const session = await visitor.getSession();
    expect(session.data?.user).toMatchObject({ email, emailVerified: true });

    const unknown = await visitor.signIn.sso({ email: "ann@nobody.example", callbackURL: "/account" });
    expect(unknown.error).toMatchObject({ status: 404, code: "NO_PROVIDER_FOUND_FOR_THE_ISSUER" });

    const removed = await client.sso.deleteProvider({ providerId });
    expect(removed.data).toEqual({ success: true });
    expect((await client.sso.providers()).data.providers.map((p: { providerId: string }) => p.providerId)).not.toContain(providerId);
  });
});
