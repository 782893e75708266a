// The OAuth state of one sign-in or link attempt (spec §4, §9): 32 random characters, kept server-side for ten
// minutes in the one verification table (hashed), deleted when used, and bound to the browser that started the
// attempt by a signed cookie, so a state lifted from one browser's URL is worthless in another.
import { clearCookie, cookieName, readSignedCookie, setSignedCookie } from "~/auth/core/cookies.server";
import { randomToken, safeEqual } from "~/auth/core/crypto.server";
import { AuthError } from "~/auth/errors";
import type { RequestContext } from "~/auth/request-context.server";
import { consumeToken, issueToken } from "~/auth/verification.server";

export const STATE_LENGTH = 32;
export const CODE_VERIFIER_LENGTH = 128;
export const STATE_TTL_SECONDS = 10 * 60;
/** RFC 7636's unreserved characters, the alphabet a PKCE code verifier is drawn from. */
const VERIFIER_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~";

const STATE_COOKIE = cookieName("oauth_state");
const STATE_PURPOSE = "oauth_state";

export interface OAuthState {
  /** The signed-in user linking an account ("" for a sign-in). */
  userId: string;
  providerId: string;
  codeVerifier: string;
  nonce: string;
  callbackURL: string;
  newUserCallbackURL?: string;
  errorCallbackURL?: string;
  requestSignUp?: boolean;
}

export async function createState(ctx: RequestContext, input: Omit<OAuthState, "codeVerifier" | "nonce">) {
  const payload: OAuthState = { ...input, codeVerifier: randomToken(CODE_VERIFIER_LENGTH, VERIFIER_ALPHABET), nonce: randomToken(32) };
  const state = await issueToken("oauth-state", payload, { ttlSeconds: STATE_TTL_SECONDS, length: STATE_LENGTH });
  setSignedCookie(ctx, STATE_COOKIE, state, STATE_PURPOSE, STATE_TTL_SECONDS);
  return { state, payload };
}

/** Why a callback's state was refused; each is one of the specification's /error codes. */
export type StateFailure = "state_not_found" | "state_mismatch" | "please_restart_the_process";

/**
 * Uses the state up, after checking that this browser started the attempt. A state from another browser is left
 * alone (its own browser may still finish); an unknown or used one is state_not_found; an expired one asks the
 * person to start again.
 */
export async function consumeState(ctx: RequestContext, state: string): Promise<OAuthState | StateFailure> {
  const mine = readSignedCookie(ctx.request, STATE_COOKIE, STATE_PURPOSE);
  if (!mine || !safeEqual(mine, state)) return "state_mismatch";
  clearCookie(ctx, STATE_COOKIE);
  try {
    return await consumeToken<OAuthState>("oauth-state", state);
  } catch (error) {
    if (error instanceof AuthError && error.code === "TOKEN_EXPIRED") return "please_restart_the_process";
    if (error instanceof AuthError) return "state_not_found";
    throw error;
  }
}
