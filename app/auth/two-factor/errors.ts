// Two-factor entries of the error catalogue (spread into ERRORS by app/auth/errors.ts).
export const TWO_FACTOR_ERRORS = {
  INVALID_TWO_FACTOR_COOKIE: [401, "invalid two factor cookie"],
  INVALID_TWO_FACTOR_AUTHENTICATION: [401, "invalid two factor authentication"],
  TWO_FACTOR_ISNT_ENABLED: [400, "Two factor isn't enabled"],
  TOTP_NOT_ENABLED: [400, "TOTP not enabled"],
} as const satisfies Record<string, readonly [number, string]>;
