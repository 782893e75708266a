// The one error catalogue. Every failure the API or a page reports is an AuthError naming an entry here.
// On the wire an error is `{ code, message }`. Each entry's key IS its wire code, and is the message upper-cased
// with words joined by underscores (spec §8) — a unit test holds every entry to that — so code here and clients
// compare the same strings. Two codes are fixed by the specification instead: VALIDATION_ERROR (its message
// names the fields) and INTERNAL_SERVER_ERROR ("unknown error"); and Better Auth's admin plugin fixes a few of its own
// (app/auth/admin/errors.ts, ADMIN_CODES_NOT_FROM_MESSAGES), as does its breached-password check
// (app/auth/password-policy/errors.ts, PASSWORD_POLICY_CODES_NOT_FROM_MESSAGES).

import { ORGANIZATION_ERRORS } from "~/auth/organization/errors";
import { PASSKEY_ERRORS } from "~/auth/passkey/errors";
import { TWO_FACTOR_ERRORS } from "~/auth/two-factor/errors";
import { USERNAME_ERRORS } from "~/auth/username/errors";
import { EMAIL_OTP_ERRORS } from "~/auth/email-otp/errors";
import { SOCIAL_ERRORS } from "~/auth/social/errors";
import { SECURITY_EVENT_ERRORS } from "~/auth/security-events/errors";
import { ADMIN_ERRORS } from "~/auth/admin/errors";
import { PASSWORD_POLICY_ERRORS } from "~/auth/password-policy/errors";
import { STEP_UP_ERRORS } from "~/auth/step-up/errors";
import { PROOF_OF_WORK_ERRORS } from "~/auth/proof-of-work/errors";
import { SSO_ERRORS } from "~/auth/sso/errors";
import { TEAM_ERRORS } from "~/auth/teams/errors";

type Entry = readonly [status: number, message: string];

export const ERRORS = {
  // Input
  VALIDATION_ERROR: [400, "Invalid request body"],
  INVALID_JSON: [400, "Invalid JSON"],
  PAYLOAD_TOO_LARGE: [413, "Payload too large"],
  UNSUPPORTED_MEDIA_TYPE: [415, "Unsupported media type"],
  NO_FIELDS_TO_UPDATE: [400, "No fields to update"],
  INVALID_EMAIL: [400, "Invalid email"],
  INVALID_PASSWORD: [400, "Invalid password"],
  PASSWORD_TOO_SHORT: [400, "Password too short"],
  PASSWORD_TOO_LONG: [400, "Password too long"],
  EMAIL_CAN_NOT_BE_UPDATED: [400, "Email can not be updated"],
  // Credentials and users
  INVALID_EMAIL_OR_PASSWORD: [401, "Invalid email or password"],
  USER_ALREADY_EXISTS: [422, "User already exists"],
  FAILED_TO_CREATE_USER: [422, "Failed to create user"],
  USER_NOT_FOUND: [404, "User not found"],
  EMAIL_NOT_VERIFIED: [403, "Email not verified"],
  CREDENTIAL_ACCOUNT_NOT_FOUND: [400, "Credential account not found"],
  USER_ALREADY_HAS_A_PASSWORD: [400, "user already has a password"],
  ACCOUNT_NOT_FOUND: [400, "Account not found"],
  // Sessions
  UNAUTHORIZED: [401, "Unauthorized"],
  FAILED_TO_CREATE_SESSION: [500, "Failed to create session"],
  FAILED_TO_GET_SESSION: [500, "Failed to get session"],
  SESSION_EXPIRED_REAUTHENTICATE_TO_PERFORM_THIS_ACTION: [400, "Session expired. Re-authenticate to perform this action."],
  SESSION_IS_NOT_FRESH: [403, "Session is not fresh"],
  // Tokens and e-mail flows
  INVALID_TOKEN: [400, "invalid token"],
  TOKEN_EXPIRED: [400, "token expired"],
  EMAIL_IS_THE_SAME: [400, "Email is the same"],
  COULDNT_UPDATE_YOUR_EMAIL: [400, "Couldn't update your email"],
  CHANGE_EMAIL_IS_DISABLED: [400, "Change email is disabled"],
  VERIFICATION_EMAIL_ISNT_ENABLED: [400, "Verification email isn't enabled"],
  EMAIL_MISMATCH: [400, "Email mismatch"],
  EMAIL_ALREADY_VERIFIED: [400, "Email already verified"],
  // A mailed link opened outside the account's own browser waits for a POST (issue 37; docs/api.md).
  LINK_NEEDS_CONFIRMATION: [403, "Link needs confirmation"],
  DELETE_USER_IS_DISABLED: [404, "Delete user is disabled"],
  UNABLE_TO_CREATE_VERIFICATION: [500, "Unable to create verification"],
  FAILED_TO_SEND_EMAIL: [502, "Failed to send email"],
  // Request hygiene
  INVALID_ORIGIN: [403, "Invalid origin"],
  MISSING_OR_NULL_ORIGIN: [403, "Missing or null Origin"],
  INVALID_CALLBACKURL: [403, "Invalid callbackURL"],
  INVALID_REDIRECTURL: [403, "Invalid redirectURL"],
  INVALID_ERRORCALLBACKURL: [403, "Invalid errorCallbackURL"],
  INVALID_NEWUSERCALLBACKURL: [403, "Invalid newUserCallbackURL"],
  TOO_MANY_REQUESTS: [429, "Too many requests"],
  // Too many wrong passwords in this account's bucket (issue 39 §1, ADR 057); also for an unknown identifier.
  ACCOUNT_TEMPORARILY_LOCKED: [429, "Account temporarily locked"],
  NOT_FOUND: [404, "Not found"],
  METHOD_NOT_ALLOWED: [405, "Method not allowed"],
  INTERNAL_SERVER_ERROR: [500, "unknown error"],
  ...ORGANIZATION_ERRORS,
  ...PASSKEY_ERRORS,
  ...TWO_FACTOR_ERRORS,
  ...USERNAME_ERRORS,
  ...EMAIL_OTP_ERRORS,
  ...SOCIAL_ERRORS,
  ...SECURITY_EVENT_ERRORS,
  ...ADMIN_ERRORS,
  ...PASSWORD_POLICY_ERRORS,
  ...STEP_UP_ERRORS,
  ...PROOF_OF_WORK_ERRORS,
  ...SSO_ERRORS,
  ...TEAM_ERRORS,
} as const satisfies Record<string, Entry>;

export type ErrorName = keyof typeof ERRORS;

/** Upper-cases a message and joins its words with underscores ("Couldn't update" → "COULDNT_UPDATE"). */
export function codeFromMessage(message: string): string {
  return message
    .toUpperCase()
    .replace(/[^A-Z0-9_\s]/g, "") // "id_token" keeps its underscore
    .trim()
    .split(/\s+/)
    .join("_");
}

export class AuthError extends Error {
  readonly status: number;
  readonly code: string;
  readonly headers: Record<string, string>;
  /**
   * Why, where the catalogue's one message covers several causes the pages word apart (an expired code and a
   * wrong one are both "invalid two factor authentication" on the wire). Never sent by the API.
   */
  readonly reason: string | undefined;
  /**
   * Fields the wire answer carries beside `code` and `message` (a step-up refusal's `reverifyMethods`, a
   * proof-of-work refusal's `challenge`). Never a secret, never user-written text.
   */
  readonly extra: Readonly<Record<string, unknown>> | undefined;

  constructor(
    name: ErrorName,
    options: { message?: string; headers?: Record<string, string>; reason?: string; extra?: Record<string, unknown>; status?: number } = {},
  ) {
    const [catalogueStatus, message] = ERRORS[name];
    // A route whose Better Auth counterpart answers one code with another status (teams: a non-member is 400).
    const status = options.status ?? catalogueStatus;
    // An AuthError is an answer (a 4xx with its catalogue entry), never logged, so it skips the stack trace:
    // capturing one was most of what a refused request (a 429 under a flood) cost.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(options.message ?? message);
    Error.stackTraceLimit = stackTraceLimit;
    this.name = "AuthError";
    this.status = status;
    // The key is the code, also when a more specific message is given (which fields failed validation).
    this.code = name;
    this.headers = options.headers ?? {};
    this.reason = options.reason;
    this.extra = options.extra;
  }

  toJSON() {
    return this.extra ? { ...this.extra, code: this.code, message: this.message } : { code: this.code, message: this.message };
  }
}

export function isAuthError(error: unknown): error is AuthError {
  return error instanceof AuthError;
}
