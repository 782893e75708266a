// E-mail one-time codes (issue 11): 6 digits, 5 minutes, 3 wrong guesses, single use.
export const EMAIL_OTP_DIGITS = 6;
export const EMAIL_OTP_SECONDS = 5 * 60;
export const EMAIL_OTP_MAX_FAILURES = 3;
