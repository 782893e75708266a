// Issuing and checking e-mailed one-time codes, through the one verification mechanism: one open code per
// address and purpose (a new one replaces the last), stored as an HMAC, single use, 3 wrong guesses, each
// counted before it is compared, and all of an address's wrong guesses capped together (ADR 029).
import { normalizeEmail } from "~/auth/core/email-address";
import { AuthError } from "~/auth/errors";
import { EMAIL_OTP_DIGITS, EMAIL_OTP_MAX_FAILURES, EMAIL_OTP_SECONDS } from "~/auth/email-otp/constants";
import type { OtpType } from "~/auth/email-otp/schemas";
import { guessWithinBudget } from "~/auth/rate-limit/guess-budget.server";
import { checkCode, openEntry, randomDigits, type EntryPurpose } from "~/auth/verification.server";
import { sendMail } from "~/email/mailer.server";
import { emails } from "~/email/templates.server";

const purposeOf = (type: OtpType): EntryPurpose => `email-otp-${type}`;

/** Makes a code for `email` and mails it. */
export async function mailCode(email: string, type: OtpType): Promise<void> {
  const code = randomDigits(EMAIL_OTP_DIGITS);
  await openEntry(purposeOf(type), email, { email }, { ttlSeconds: EMAIL_OTP_SECONDS, code });
  await sendMail(emails.emailOtp(email, code, type, EMAIL_OTP_SECONDS));
}

/**
 * Checks a code; by default uses it up. Wrong: 400 Invalid OTP; too old: OTP expired; third wrong: 403. Every
 * guess that is not right, including one for an address with no code (or no account), comes out of the
 * address's budget, so a known address and an unknown one answer alike: 429 once it is spent.
 */
export async function verifyCode(rawEmail: string, type: OtpType, otp: string, options: { keep?: boolean } = {}): Promise<string> {
  const email = normalizeEmail(rawEmail);
  const check = await guessWithinBudget(
    { email },
    () => checkCode(purposeOf(type), email, otp, { maxFailures: EMAIL_OTP_MAX_FAILURES, keep: options.keep }),
    (outcome) => outcome.ok,
  );
  if (check.ok) return email;
  if (check.reason === "expired") throw new AuthError("OTP_EXPIRED");
  if (check.reason === "exhausted" || check.reason === "spent") throw new AuthError("TOO_MANY_ATTEMPTS");
  throw new AuthError("INVALID_OTP");
}
