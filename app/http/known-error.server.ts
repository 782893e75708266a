// Which thrown values are answers rather than bugs. Both doors (API endpoints and page actions) ask this.
import { AuthError, isAuthError } from "~/auth/errors";
import { isRecordNotFound } from "~/db.server";

/**
 * The catalogue error a thrown value stands for, or null for a real fault (logged, answered 500).
 * A write that finds its row gone means the account was deleted by a concurrent request between reading the
 * session and acting on it: that is "User not found", not a server error.
 */
export function knownError(error: unknown): AuthError | null {
  if (isAuthError(error)) return error;
  if (isRecordNotFound(error)) return new AuthError("USER_NOT_FOUND");
  return null;
}
