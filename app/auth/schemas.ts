// Field rules shared by the JSON API, the page forms (server and browser, through Conform) and the domain.
// Their messages are what the page forms show, so they are worded for people ("Use at least 8 characters.");
// the JSON API answers with the error catalogue's codes and messages, never these.
import { z } from "zod";
import { identifierField, usernameField } from "~/auth/username/schemas";

export const MAX_EMAIL_LENGTH = 254;
export const MAX_NAME_LENGTH = 200;
const INVALID_EMAIL_WORDS = "Enter an email address like ada@example.com.";

export const emailField = z
  .string({ error: "Enter your email address." })
  .trim()
  .min(1, "Enter your email address.")
  .max(MAX_EMAIL_LENGTH, `Use at most ${MAX_EMAIL_LENGTH} characters.`)
  .pipe(z.email(INVALID_EMAIL_WORDS));

/**
 * Characters a name may not hold (issue 24, item 9): names are shown to other people and mailed to any address
 * (an inviter's, an organization's), so no line breaks, tabs or other control characters, no invisible format
 * characters and no bidirectional overrides that make text read differently from what it is. Zero-width
 * (non-)joiners stay allowed: Persian and Indic scripts and emoji sequences need them.
 */
const NOT_IN_A_NAME = /[\p{Cc}\p{Zl}\p{Zp}]|(?![\u200C\u200D])\p{Cf}/u;
export const NAME_CHARACTERS_WORDS = "Use letters, digits, spaces and punctuation only: no line breaks, tabs or control characters.";

export function isCleanName(value: string): boolean {
  return !NOT_IN_A_NAME.test(value);
}

/** A name from elsewhere (a provider's profile): what may not be in a name becomes a space, and it is bounded. */
export function cleanName(value: string): string {
  const clean = value.replace(new RegExp(NOT_IN_A_NAME.source, "gu"), " ").replace(/\s+/g, " ").trim();
  return [...clean].slice(0, MAX_NAME_LENGTH).join("");
}

/** A person's or an organization's name as the JSON API takes it (Better Auth lets it be empty). */
export const apiNameField = z
  .string()
  .trim()
  .max(MAX_NAME_LENGTH, `Use at most ${MAX_NAME_LENGTH} characters.`)
  .refine(isCleanName, NAME_CHARACTERS_WORDS);

export const nameField = z
  .string({ error: "Enter your name." })
  .trim()
  .min(1, "Enter your name.")
  .max(MAX_NAME_LENGTH, `Use at most ${MAX_NAME_LENGTH} characters.`)
  .refine(isCleanName, NAME_CHARACTERS_WORDS);

/** Shown under a new-password field before the first try, and as the error when it is too short. */
export const passwordLengthHint = (bounds: { min: number }) => `Use at least ${bounds.min} characters.`;

export function passwordField(bounds: { min: number; max: number }) {
  return z
    .string({ error: "Enter a password." })
    .min(bounds.min, passwordLengthHint(bounds))
    .max(bounds.max, `Use at most ${bounds.max} characters.`);
}

const LOCAL_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * A profile picture or logo is loaded by every browser that shows it, so only a plain https: URL (http: on the
 * local machine) is kept: no javascript:, data:, file: or credentials in the URL.
 */
export function isSafeImageUrl(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.username || url.password) return false;
  if (url.protocol === "https:") return true;
  return url.protocol === "http:" && (LOCAL_HOSTNAMES.has(url.hostname) || url.hostname.endsWith(".localhost"));
}

export const INVALID_IMAGE_URL = "Enter a web address starting with https://, or leave it empty.";
export const imageField = z.string().trim().max(2048).refine(isSafeImageUrl, INVALID_IMAGE_URL);
/** The JSON API's image: a safe URL, or null / "" to remove it. */
export const apiImageField = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => value === "" || isSafeImageUrl(value), INVALID_IMAGE_URL)
  .nullish();

/** A callback or redirect URL in a JSON body: bounded here; where it may lead is the origin check's (origin.server.ts). */
export const optionalUrl = z.string().max(2048).optional();

/** Forms: Conform turns a ticked checkbox ("on") into true; an unticked one is absent. */
export const checkboxField = z.boolean().optional();

export function signUpFormSchema(bounds: { min: number; max: number }) {
  return z.object({
    name: nameField,
    email: emailField,
    password: passwordField(bounds),
    username: usernameField.optional(),
    redirectTo: z.string().optional(),
  });
}

export const signInFormSchema = z.object({
  /** "Email or username" (issue 11): the field keeps its name so existing forms and clients still work. */
  email: identifierField,
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password."),
  rememberMe: checkboxField,
  redirectTo: z.string().optional(),
});

export const forgotPasswordSchema = z.object({ email: emailField });

/** A mailed link's page (issue 37): its buttons post the link's token, and where the click lands afterwards. */
export const emailLinkFormSchema = z.object({ token: z.string().min(1), callbackURL: z.string().optional() });
/** "That was me": the link's token and the account's own password. */
export const emailLinkCreatorFormSchema = emailLinkFormSchema.extend({
  password: z.string({ error: "Enter your password." }).min(1, "Enter your password."),
});

export function resetPasswordFormSchema(bounds: { min: number; max: number }) {
  return z.object({ token: z.string().min(1), newPassword: passwordField(bounds) });
}

export const profileSchema = z.object({
  name: nameField,
  username: usernameField.optional(),
  image: imageField.optional(),
});

/** The welcome step after a code sign-in made a new account: the name it lacks, and where the person was going. */
export const welcomeSchema = z.object({ name: nameField, redirectTo: z.string().optional() });

export const changeEmailSchema = z.object({ newEmail: emailField });

export function changePasswordSchema(bounds: { min: number; max: number }) {
  return z.object({
    currentPassword: z.string({ error: "Enter your current password." }),
    newPassword: passwordField(bounds),
    revokeOtherSessions: checkboxField,
  });
}

export function setPasswordSchema(bounds: { min: number; max: number }) {
  return z.object({ newPassword: passwordField(bounds) });
}

export const deleteAccountSchema = z.object({
  password: z.string().optional(),
  /** The page's confirmation step: the account's address, typed out. */
  confirmEmail: z.string({ error: "Type your email address to confirm." }).trim().min(1, "Type your email address to confirm."),
});

/**
 * Every list the API returns is one page (ADR 044). Without a `limit` a page holds Better Auth's default of 100
 * (its adapters' default for a list, and the organization plugin's membership limit); a page asks for at most
 * MAX_PAGE_SIZE, and `offset` skips at most MAX_PAGE_OFFSET rows (a deeper offset reads every row it skips).
 */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;
export const MAX_PAGE_OFFSET = 1_000_000;
export const pageLimitField = z.coerce.number().int().min(1).max(MAX_PAGE_SIZE);
export const pageOffsetField = z.coerce.number().int().min(0).max(MAX_PAGE_OFFSET);
/** `?limit=&offset=`, both optional: the query of a list that Better Auth pages (and of those it only bounds). */
export const pageQuery = z.object({ limit: pageLimitField.optional(), offset: pageOffsetField.optional() });
export interface Page {
  limit?: number;
  offset?: number;
}
/** Which page a page of the site shows (from 1), of how many, and which rows (app/components/pager.tsx). */
export interface PageAt {
  page: number;
  pages: number;
  /** The position of the first row shown, from 1. */
  first: number;
  shown: number;
  total: number;
}

export function pageAt(page: number, perPage: number, shown: number, total: number): PageAt {
  return { page, first: (page - 1) * perPage + 1, shown, total, pages: Math.max(1, Math.ceil(total / perPage)) };
}

/** Prisma's `take`/`skip` for a page, with the default size when none is asked for. */
export function pageArgs(page: Page = {}, defaultSize = DEFAULT_PAGE_SIZE): { take: number; skip: number } {
  return { take: page.limit ?? defaultSize, skip: page.offset ?? 0 };
}
