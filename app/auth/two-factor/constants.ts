// Two-factor numbers (spec §3 and §9, issue 11). Shared by the domain, the pages and the tests' expectations.

/** Spec §9: the trusted-device cookie lives 30 days, refreshed each time it skips the second factor. */
export const TRUST_DEVICE_SECONDS = 30 * 24 * 60 * 60;
/** How long a signed-in-with-the-password-only attempt waits for its second factor. */
export const TWO_FACTOR_ATTEMPT_SECONDS = 10 * 60;
/** Wrong codes an attempt survives: the fifth ends it. */
export const MAX_TWO_FACTOR_FAILURES = 5;
/** The e-mailed second-factor code: 6 digits, 5 minutes. */
export const TWO_FACTOR_OTP_DIGITS = 6;
export const TWO_FACTOR_OTP_SECONDS = 5 * 60;
/** RFC 6238 as authenticator apps expect it: SHA-1, 6 digits, 30-second steps, one step of drift either way. */
export const TOTP = { digits: 6, period: 30, window: 1 } as const;
/** Spec §3 and §9: 10 backup codes, each 10 letters and digits shown as "xxxxx-xxxxx". */
export const BACKUP_CODE_COUNT = 10;
export const BACKUP_CODE_HALF = 5;

/**
 * The second factors a sign-in's `twoFactorMethods` can list (Better Auth 1.7): the authenticator app, and a code
 * by e-mail. Backup codes are always allowed and never listed. Which are open is decided by the first factor
 * (app/auth/sign-in/first-factor.server.ts, docs/decisions/027-second-factor-independence.md).
 */
export type SecondFactorMethod = "totp" | "otp";
