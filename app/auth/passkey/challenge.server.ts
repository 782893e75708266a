// WebAuthn challenges through the one verification mechanism (docs/decisions/018-passkey-challenges.md): the
// challenge the browser signs is random; the row that remembers it is found only through a second random secret
// kept in this browser's signed, HttpOnly cookie. So a challenge is single-use (consuming deletes its row),
// expires after five minutes, and cannot be answered from another browser or replayed.
import { clearCookie, cookieName, readSignedCookie, setSignedCookie } from "~/auth/core/cookies.server";
import { AuthError } from "~/auth/errors";
import { CEREMONY_TIMEOUT_SECONDS } from "~/auth/passkey/relying-party.server";
import type { RequestContext } from "~/auth/request-context.server";
import { consumeToken, issueToken } from "~/auth/verification.server";

const COOKIE = cookieName("passkey_challenge");
const COOKIE_PURPOSE = "passkey_challenge";

export type CeremonyKind = "register" | "authenticate" | "sign-up" | "reverify";

export interface ChallengePayload {
  /** The signed-in user a registration or a confirmation (reverify) is for; null for sign-in and sign-up. */
  userId: string | null;
  kind: CeremonyKind;
  challenge: string;
  /** Registration: the name asked for with the options (`?name=`), used when the verify call gives none. */
  name?: string;
  /** Passkey sign-up: an HMAC of the e-mailed code this ceremony goes with. */
  codeHash?: string;
}

/** Remembers the challenge of a ceremony this browser starts; a newer ceremony replaces an older one. */
export async function rememberChallenge(ctx: RequestContext, payload: ChallengePayload): Promise<void> {
  const handle = await issueToken<ChallengePayload>("passkey-challenge", payload, { ttlSeconds: CEREMONY_TIMEOUT_SECONDS, length: 32 });
  setSignedCookie(ctx, COOKIE, handle, COOKIE_PURPOSE, CEREMONY_TIMEOUT_SECONDS);
}

/** Uses up this browser's challenge for a ceremony of `kind`; CHALLENGE_NOT_FOUND for anything else. */
export async function takeChallenge(ctx: RequestContext, kind: CeremonyKind): Promise<ChallengePayload> {
  const handle = readSignedCookie(ctx.request, COOKIE, COOKIE_PURPOSE);
  if (!handle) throw new AuthError("CHALLENGE_NOT_FOUND");
  clearCookie(ctx, COOKIE);
  let payload: ChallengePayload;
  try {
    payload = await consumeToken<ChallengePayload>("passkey-challenge", handle);
  } catch (error) {
    if (error instanceof AuthError) throw new AuthError("CHALLENGE_NOT_FOUND");
    throw error;
  }
  if (payload.kind !== kind) throw new AuthError("CHALLENGE_NOT_FOUND");
  return payload;
}
