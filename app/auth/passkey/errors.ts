// The passkey entries of the one error catalogue (spread into ERRORS by app/auth/errors.ts). Spec §8: a failed or
// cancelled sign-in is "auth cancelled", an aborted registration "registration cancelled", an authenticator that
// is already registered "previously registered" — all 400.

type Entry = readonly [status: number, message: string];

export const PASSKEY_ERRORS = {
  AUTH_CANCELLED: [400, "auth cancelled"],
  REGISTRATION_CANCELLED: [400, "registration cancelled"],
  PREVIOUSLY_REGISTERED: [400, "previously registered"],
  /** No challenge for this browser: never asked, already used, expired, or asked for by another browser. */
  CHALLENGE_NOT_FOUND: [400, "Challenge not found"],
  PASSKEY_NOT_FOUND: [404, "Passkey not found"],
  /** Passkey sign-up: the e-mailed code is wrong, used, expired, or was sent to another browser. */
  INVALID_CODE: [400, "Invalid code"],
} as const satisfies Record<string, Entry>;
