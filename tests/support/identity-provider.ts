// A local OpenID provider for API tests ("Continue with Test SSO"): oauth2-mock-server, which approves at once and
// signs RS256 ID tokens; every token and userinfo answer carries the claims `current()` returns at that moment.
import { OAuth2Server } from "oauth2-mock-server";
import { afterAll, beforeAll } from "vitest";
import type { ApiClient, ApiResponse } from "./client";
import type { Mailbox } from "./mailbox";
import { sharedMailbox, startServer, type TestServer } from "./server";

export const TEST_SSO_CLIENT_ID = "latchkey-test-client";

export interface TestIdentityProvider {
  idp: OAuth2Server;
  /** The server's OIDC_* settings for this provider. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

export async function startIdentityProvider(current: () => Record<string, unknown>, clientId = TEST_SSO_CLIENT_ID): Promise<TestIdentityProvider> {
  const idp = new OAuth2Server();
  await idp.issuer.keys.generate("RS256");
  await idp.start(0, "localhost");
  idp.service.on("beforeTokenSigning", (token) => Object.assign(token.payload, current()));
  idp.service.on("beforeUserinfo", (response) => void (response.body = { ...current() }));
  return {
    idp,
    env: {
      OIDC_ISSUER: idp.issuer.url!,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: "test-client-secret",
      OIDC_PROVIDER_NAME: "Test SSO",
    },
    stop: () => idp.stop(),
  };
}

/** A file's provider and the claims it vouches for next, with the round trip every social test takes. */
export interface TestSso extends TestIdentityProvider {
  /** What the provider vouches for in the next ID token and userinfo answer. */
  claims: Record<string, unknown>;
  /**
   * Starts a provider round trip from `path` (sign-in/social or link-social) in `client`'s browser, as `subject`
   * when given, and lets the provider approve it: `callback` is where the provider sends the browser back
   * (null when the server refused to start).
   */
  approve(client: ApiClient, path: string, subject?: Record<string, unknown>): Promise<{ start: ApiResponse; callback: string | null }>;
}

/**
 * This file's server with "Continue with Test SSO" through a provider of its own, its mail going to the shared
 * mailbox: started before the file's tests and stopped after them. The provider's address is the file's alone,
 * so the server is too (a shared one would share the provider's claims between files).
 */
export function useServerWithProvider(env: Record<string, string>, started: (running: { server: TestServer; mailbox: Mailbox; sso: TestSso }) => void): void {
  let running: { server?: TestServer; mailbox?: Mailbox; sso?: TestSso } = {};
  beforeAll(async () => {
    const provider = await startIdentityProvider(() => sso.claims);
    const sso: TestSso = {
      ...provider,
      claims: {},
      async approve(client, path, subject) {
        if (subject) sso.claims = subject;
        const start = await client.post(path, { provider: "oidc", callbackURL: "/account" });
        if (start.status !== 200) return { start, callback: null };
        const authorize = await fetch(start.body.url, { redirect: "manual" });
        if (authorize.status !== 302) throw new Error(`the provider answered ${authorize.status}, not a redirect back`);
        return { start, callback: authorize.headers.get("location")! };
      },
    };
    running = { sso };
    const mailbox = await sharedMailbox();
    running = { sso, mailbox };
    const server = await startServer({ env: { SMTP_URL: mailbox.url, ...sso.env, ...env } });
    running = { sso, mailbox, server };
    started({ server, mailbox, sso });
  });
  afterAll(async () => {
    await running.server?.stop();
    await running.mailbox?.stop();
    await running.sso?.stop();
  });
}
