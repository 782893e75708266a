// Two-factor entries of the error catalogue (spread into ERRORS by app/auth/errors.ts).
export const TWO_FACTOR_ERRORS = {
  INVALID_TWO_FACTOR_COOKIE: [401, "invalid two factor cookie"],
  INVALID_TWO_FACTOR_AUTHENTICATION: [401, "invalid two factor authentication"],
  TWO_FACTOR_ISNT_ENABLED: [400, "Two factor isn't enabled"],
  TOTP_NOT_ENABLED: [400, "TOTP not enabled"],
  /** Better Auth's code: this sign-in may not finish with an e-mailed code (not chosen, or the first factor rested on the inbox). */
  OTP_NOT_ENABLED: [400, "OTP not enabled"],
} as const satisfies Record<string, readonly [number, string]>;
