// Username rules (issue 11): 3 to 30 letters, digits, "_" and "."; stored lowercased, shown as typed.
import { z } from "zod";
import { USERNAME_ERRORS } from "~/auth/username/errors";

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 30;
export const USERNAME_PATTERN = /^[A-Za-z0-9_.]+$/;

/** The catalogue error for a malformed username, or null when it is well formed. */
export function usernameProblem(typed: string): keyof typeof USERNAME_ERRORS | null {
  if (typed.length < USERNAME_MIN_LENGTH) return "USERNAME_IS_TOO_SHORT";
  if (typed.length > USERNAME_MAX_LENGTH) return "USERNAME_IS_TOO_LONG";
  if (!USERNAME_PATTERN.test(typed)) return "USERNAME_IS_INVALID";
  return null;
}

/** The rule in words for people, shown beside every username field and after every refusal of one. */
export const USERNAME_RULE = `${USERNAME_MIN_LENGTH} to ${USERNAME_MAX_LENGTH} letters, digits, dots (.) and underscores (_), with no spaces.`;

/** The hint beside a username field. */
export const USERNAME_HINT = `Use ${USERNAME_RULE} You can sign in with it instead of your email address.`;

/**
 * The pages' words for the username refusals (the JSON API keeps the catalogue's, spec §5): what is wrong, then
 * the rule. The same words as for e-mail where there is an e-mail counterpart.
 */
export const USERNAME_WORDS = {
  USERNAME_IS_TOO_SHORT: `That username is too short. Use ${USERNAME_RULE}`,
  USERNAME_IS_TOO_LONG: `That username is too long. Use ${USERNAME_RULE}`,
  USERNAME_IS_INVALID: `That username has a character it can't have. Use ${USERNAME_RULE}`,
  USERNAME_IS_ALREADY_TAKEN_PLEASE_TRY_ANOTHER: "That username is already taken. Choose another one.",
  INVALID_USERNAME_OR_PASSWORD: "That username and password don't match. Check both and try again.",
} as const satisfies Record<keyof typeof USERNAME_ERRORS, string>;

/** For forms: the same rules, in the pages' words. */
export const usernameField = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const problem = usernameProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: USERNAME_WORDS[problem] });
  });

/**
 * "Email or username" in one field: an "@" makes it an e-mail address, anything else must be a well-formed
 * username; anything else is caught before any round trip, in the page's words (the JSON API keeps spec §5's
 * "Invalid email" through its own schemas).
 */
export const identifierField = z
  .string({ error: "Enter your email address or username." })
  .trim()
  .min(1, "Enter your email address or username.")
  .max(254, "Enter an email address like ada@example.com, or your username.")
  .refine(
    (value) => (value.includes("@") ? z.email().safeParse(value).success : usernameProblem(value) === null),
    "Enter an email address like ada@example.com, or your username.",
  );
