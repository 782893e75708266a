// Step-up's entries of the one error catalogue (issue 39 §4; spread into ERRORS by app/auth/errors.ts). A session
// that is not recently verified is refused with the catalogue's SESSION_IS_NOT_FRESH (the spec's), carrying
// `reverifyMethods`; these are the confirmation's own refusals.
type Entry = readonly [status: number, message: string];

export const STEP_UP_ERRORS = {
  /** An account with two-factor on confirms with both factors at once: TOTP or a passkey that verified the person. */
  SECOND_FACTOR_REQUIRED: [403, "Second factor required"],
} as const satisfies Record<string, Entry>;
