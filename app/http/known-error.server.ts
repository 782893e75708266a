// Which thrown values are answers rather than bugs. Both doors (API endpoints and page actions) ask this.
import { AuthError, isAuthError } from "~/auth/errors";
import { isForeignKeyViolation, isRecordNotFound } from "~/db.server";
import { BodyNotReceivedError, BodyTooLargeError } from "~/http/body.server";

/**
 * The catalogue error a thrown value stands for, or null for a real fault (logged, answered 500).
 * A write that finds its row gone, or refers to one that is gone, means the account was deleted by a concurrent
 * request between reading it and acting on it: that is "User not found", not a server error. A body over the
 * cap, or one that stopped arriving, is the client's doing.
 */
export function knownError(error: unknown): AuthError | null {
  if (isAuthError(error)) return error;
  if (isRecordNotFound(error) || isForeignKeyViolation(error)) return new AuthError("USER_NOT_FOUND");
  if (error instanceof BodyTooLargeError) return new AuthError("PAYLOAD_TOO_LARGE");
  if (error instanceof BodyNotReceivedError) return new AuthError("VALIDATION_ERROR", { message: "The request body did not arrive" });
  return null;
}
