// E-mail one-time code entries of the error catalogue (spread into ERRORS by app/auth/errors.ts).
export const EMAIL_OTP_ERRORS = {
  INVALID_OTP: [400, "Invalid OTP"],
  OTP_EXPIRED: [400, "OTP expired"],
  TOO_MANY_ATTEMPTS: [403, "Too many attempts"],
} as const satisfies Record<string, readonly [number, string]>;
