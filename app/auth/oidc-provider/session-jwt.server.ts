// GET /api/auth/token and /api/auth/jwks, as Better Auth's JWT plugin answers them: a short-lived JWT for the
// current session (its payload the session's user, `sub` the user id, issuer and audience BASE_URL), signed with
// the provider's Ed25519 key (the plugin's default algorithm), verifiable by anyone against the published key set,
// which is the provider's own: one key store, one rotation. An impersonation session's token also carries
// `act: {sub: <admin id>}`.
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { publicUser } from "~/auth/core/presenters.server";
import { env } from "~/env.server";
import { SESSION_JWT_SECONDS } from "./constants";
import { signingKeySet } from "./keys.server";

const SESSION_JWT_ALGORITHM = "EdDSA";

export async function sessionJwt(current: SessionWithUser): Promise<string> {
  const { SignJWT, importJWK } = await import("jose");
  const keys = await signingKeySet();
  // The signing key comes first among its algorithm's keys (keys.server.ts).
  const jwk = keys.privateKeys.find((key) => (key as { alg?: string }).alg === SESSION_JWT_ALGORITHM)!;
  const issuer = new URL(env.BASE_URL).origin;
  const now = Math.floor(Date.now() / 1000);
  // An admin acting as the user gets the user's token, marked as such (RFC 8693's `act`): a service reading it
  // can tell the person from an admin in their name (ADR 050, 2026-12-02).
  const actor = current.session.impersonatedBy ? { act: { sub: current.session.impersonatedBy } } : {};
  return new SignJWT({ ...publicUser(current.user), ...actor })
    .setProtectedHeader({ alg: SESSION_JWT_ALGORITHM, kid: (jwk as { kid?: string }).kid })
    .setIssuedAt(now)
    .setExpirationTime(now + SESSION_JWT_SECONDS)
    .setIssuer(issuer)
    .setAudience(issuer)
    .setSubject(current.user.id)
    .sign(await importJWK(jwk as Parameters<typeof importJWK>[0], SESSION_JWT_ALGORITHM));
}

/** The published keys: the same set as the provider's jwks_uri. */
export async function publicKeySet(): Promise<{ keys: object[] }> {
  return { keys: (await signingKeySet()).publicKeys };
}
