// A local OpenID provider for API tests ("Continue with Test SSO"): oauth2-mock-server, which approves at once and
// signs RS256 ID tokens; every token and userinfo answer carries the claims `current()` returns at that moment.
import { OAuth2Server } from "oauth2-mock-server";

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
