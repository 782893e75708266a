// Security-event entries of the error catalogue (spread into ERRORS by app/auth/errors.ts).
export const SECURITY_EVENT_ERRORS = {
  /** GET /list-security-events: `limit` is not a whole number from 1 to 100. */
  INVALID_LIMIT: [400, "Invalid limit"],
  /** GET /list-security-events: the cursor is garbled, or was not given to this account. */
  INVALID_CURSOR: [400, "Invalid cursor"],
} as const satisfies Record<string, readonly [number, string]>;
