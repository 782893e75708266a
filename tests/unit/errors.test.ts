// The error catalogue: wire codes derived from messages (spec §8), and the specification's messages verbatim.
import { describe, expect, it } from "vitest";
import { AuthError, codeFromMessage, ERRORS, type ErrorName } from "~/auth/errors";
import { ADMIN_CODES_NOT_FROM_MESSAGES } from "~/auth/admin/errors";
import { PASSWORD_POLICY_CODES_NOT_FROM_MESSAGES } from "~/auth/password-policy/errors";
import { PROOF_OF_WORK_CODES_NOT_FROM_MESSAGES } from "~/auth/proof-of-work/errors";
import { SSO_CODES_NOT_FROM_MESSAGES } from "~/auth/sso/errors";
import { TEAM_CODES_NOT_FROM_MESSAGES } from "~/auth/teams/errors";
import { ORGANIZATION_CODES_NOT_FROM_MESSAGES } from "~/auth/organization/errors";

const entries = Object.entries(ERRORS) as Array<[ErrorName, readonly [number, string]]>;

describe("codeFromMessage", () => {
  it.each([
    ["Invalid email or password", "INVALID_EMAIL_OR_PASSWORD"],
    ["Couldn't update your email", "COULDNT_UPDATE_YOUR_EMAIL"],
    ["Session expired. Re-authenticate to perform this action.", "SESSION_EXPIRED_REAUTHENTICATE_TO_PERFORM_THIS_ACTION"],
    ["username is already taken. please try another.", "USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER"],
    ["Verification email isn't enabled", "VERIFICATION_EMAIL_ISNT_ENABLED"],
    ["id_token not supported", "ID_TOKEN_NOT_SUPPORTED"],
    ["email_doesn't_match", "EMAIL_DOESNT_MATCH"],
    ["  padded \t message  ", "PADDED_MESSAGE"],
    ["You are not allowed to access resource: organization", "YOU_ARE_NOT_ALLOWED_TO_ACCESS_RESOURCE_ORGANIZATION"],
  ])("%j → %s", (message, code) => {
    expect(codeFromMessage(message)).toBe(code);
  });
});

describe("ERRORS", () => {
  // The two codes the specification fixes itself; every other key is its message's derived code.
  // Better Auth's admin plugin fixes a few more (BANNED_USER…), which its adminClient compares, and its
  // breached-password check one (PASSWORD_COMPROMISED), its captcha plugin two (MISSING_RESPONSE, VERIFICATION_FAILED).
  const SPEC_FIXED_CODES = new Set<ErrorName>(["VALIDATION_ERROR", "INTERNAL_SERVER_ERROR", ...ADMIN_CODES_NOT_FROM_MESSAGES, ...PASSWORD_POLICY_CODES_NOT_FROM_MESSAGES, ...PROOF_OF_WORK_CODES_NOT_FROM_MESSAGES, ...SSO_CODES_NOT_FROM_MESSAGES, ...TEAM_CODES_NOT_FROM_MESSAGES, ...ORGANIZATION_CODES_NOT_FROM_MESSAGES]);

  it.each(entries.filter(([name]) => !SPEC_FIXED_CODES.has(name)))("%s: the key is the code derived from its message", (name, [status, message]) => {
    const error = new AuthError(name);
    expect(name).toBe(codeFromMessage(message));
    expect(error.code).toBe(name);
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
    expect(JSON.parse(JSON.stringify(error))).toEqual({ code: name, message });
  });

  it("answers INTERNAL_SERVER_ERROR with the message 'unknown error' (spec §8)", () => {
    expect(new AuthError("INTERNAL_SERVER_ERROR").toJSON()).toEqual({ code: "INTERNAL_SERVER_ERROR", message: "unknown error" });
  });

  it("uses plausible HTTP error statuses", () => {
    for (const [name, [status]] of entries) {
      expect(status, name).toBeGreaterThanOrEqual(400);
      expect(status, name).toBeLessThan(600);
    }
  });

  it("keeps VALIDATION_ERROR's code when a more specific message is given", () => {
    const error = new AuthError("VALIDATION_ERROR", { message: "[body.email] Invalid input" });
    expect(error.toJSON()).toEqual({ code: "VALIDATION_ERROR", message: "[body.email] Invalid input" });
    expect(error.status).toBe(400);
  });

  it("carries extra headers (Retry-After) without putting them in the body", () => {
    const error = new AuthError("TOO_MANY_REQUESTS", { headers: { "Retry-After": "7" } });
    expect(error.headers).toEqual({ "Retry-After": "7" });
    expect(Object.keys(error.toJSON())).toEqual(["code", "message"]);
  });
});

describe("the specification's messages and statuses", () => {
  const messages = new Map(entries.map(([name, [status, message]]) => [message, { name, status }]));

  it.each([
    ["Invalid email or password", 401],
    ["User already exists", 422],
    ["Email can not be updated", 400],
    ["Session is not fresh", 403],
    ["Invalid email", 400],
    ["Password too short", 400],
    ["Password too long", 400],
    ["Email not verified", 403],
    ["Invalid origin", 403],
    ["Invalid callbackURL", 403],
    ["Too many requests", 429],
    ["unknown error", 500],
    ["The password you entered has been compromised. Please choose a different password.", 400],
  ])("%j (%i)", (message, status) => {
    expect(messages.get(message), `missing message ${JSON.stringify(message)}`).toBeDefined();
    expect(messages.get(message)!.status).toBe(status);
  });

  it.each([
    "User not found",
    "Failed to create user",
    "Failed to create session",
    "Failed to get session",
    "Invalid password",
    "Credential account not found",
    "Session expired. Re-authenticate to perform this action.",
    "Account not found",
    "invalid token",
    "Email is the same",
    "Couldn't update your email",
    "Change email is disabled",
    "Verification email isn't enabled",
    "user already has a password",
    "Unable to create verification",
  ])("%j is present verbatim", (message) => {
    expect(messages.has(message), `missing message ${JSON.stringify(message)}`).toBe(true);
  });
});
