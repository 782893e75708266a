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

/** For forms: the same rules with the same words. */
export const usernameField = z
  .string()
  .trim()
  .superRefine((value, ctx) => {
    const problem = usernameProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: USERNAME_ERRORS[problem][1] });
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
