// Sign-in outcomes refused before the first-factor door (a wrong password, code or passkey; a locked account),
// counted under the security events' method word. The door itself counts what reaches it
// (app/auth/sign-in/first-factor.server.ts); a request the rate limit refused is no attempt and counts nothing.
import { AuthError } from "~/auth/errors";
import { metrics, type SignInMethod, type SignInOutcome } from "~/observability/metrics.server";

/** Wrong credentials or an unknown account, as each first factor answers them. */
const FAILURES = new Set(["INVALID_EMAIL_OR_PASSWORD", "INVALID_USERNAME_OR_PASSWORD", "INVALID_OTP", "OTP_EXPIRED", "AUTH_CANCELLED"]);
/** Banned, or the account's budget of wrong guesses spent (ADR 029, 057). */
const LOCKED = new Set(["BANNED_USER", "ACCOUNT_TEMPORARILY_LOCKED", "TOO_MANY_ATTEMPTS"]);

export function refusedSignInOutcome(error: unknown): SignInOutcome | null {
  if (!(error instanceof AuthError)) return null;
  if (FAILURES.has(error.code)) return "failure";
  return LOCKED.has(error.code) ? "locked" : null;
}

/** Counts a first factor's refusal, if it is one. */
export function countRefusedSignIn(method: SignInMethod, error: unknown): void {
  const outcome = refusedSignInOutcome(error);
  if (outcome) metrics.signIn(method, outcome);
}

/** Runs a first factor's check, counting its refusal (the error is thrown on unchanged). */
export async function countingRefusals<T>(method: SignInMethod, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    countRefusedSignIn(method, error);
    throw error;
  }
}
