// ID tokens are accepted once (docs/decisions/031-id-token-sign-in.md). Every ID token this service accepts, on
// the id-token path of /sign-in/social or from a provider's token endpoint on the redirect path, is recorded
// until it expires; the same token presented again is refused. Without this, a token lifted from a client, a
// log or a stored account row would sign its user in again until it expired.
import { decodeJwt } from "jose";
import { claimOnce } from "~/auth/verification.server";
import { ID_TOKEN_CLOCK_TOLERANCE_SECONDS } from "~/auth/social/providers/shared.server";

/** How long a token without a readable expiry is remembered (providers' ID tokens live an hour or less). */
const DEFAULT_MEMORY_SECONDS = 60 * 60;

/**
 * Records the token as used; false if it was used before (exactly one of concurrent uses gets true). The record
 * is keyed by the token's signed part (header and claims), not its signature: an ECDSA signature can be
 * rewritten into a second valid one for the same claims, and that must not count as a new token.
 */
export async function useIdTokenOnce(token: string): Promise<boolean> {
  const signedPart = token.split(".").slice(0, 2).join(".");
  let expiresInSeconds = DEFAULT_MEMORY_SECONDS;
  try {
    const { exp } = decodeJwt(token);
    if (typeof exp === "number") expiresInSeconds = Math.max(0, exp - Date.now() / 1000);
  } catch {
    // not a JWT: remembered for the default time
  }
  // Until the token could no longer be accepted by anyone's clock, and a minute more.
  const ttlSeconds = Math.ceil(expiresInSeconds + ID_TOKEN_CLOCK_TOLERANCE_SECONDS + 60);
  return claimOnce("id-token-used", signedPart, ttlSeconds);
}
