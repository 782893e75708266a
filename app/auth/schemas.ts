// Field rules shared by the JSON API, the page forms (server and browser, through Conform) and the domain.
// Messages come from the error catalogue so every door says the same words.
import { z } from "zod";
import { ERRORS } from "~/auth/errors";

export const MAX_EMAIL_LENGTH = 254;
export const MAX_NAME_LENGTH = 200;

export const emailField = z
  .string({ error: "Email is required" })
  .trim()
  .min(1, "Email is required")
  .max(MAX_EMAIL_LENGTH, ERRORS.INVALID_EMAIL[1])
  .pipe(z.email(ERRORS.INVALID_EMAIL[1]));

export const nameField = z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(MAX_NAME_LENGTH);

export function passwordField(bounds: { min: number; max: number }) {
  return z
    .string({ error: "Password is required" })
    .min(bounds.min, ERRORS.PASSWORD_TOO_SHORT[1])
    .max(bounds.max, ERRORS.PASSWORD_TOO_LONG[1]);
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

export const INVALID_IMAGE_URL = "Invalid image URL: use an https:// address";
export const imageField = z.string().trim().max(2048).refine(isSafeImageUrl, INVALID_IMAGE_URL);
/** The JSON API's image: a safe URL, or null / "" to remove it. */
export const apiImageField = z
  .string()
  .trim()
  .max(2048)
  .refine((value) => value === "" || isSafeImageUrl(value), INVALID_IMAGE_URL)
  .nullish();

/** Forms: Conform turns a ticked checkbox ("on") into true; an unticked one is absent. */
export const checkboxField = z.boolean().optional();

export function signUpFormSchema(bounds: { min: number; max: number }) {
  return z.object({
    name: nameField,
    email: emailField,
    password: passwordField(bounds),
    redirectTo: z.string().optional(),
  });
}

export const signInFormSchema = z.object({
  email: emailField,
  password: z.string({ error: "Password is required" }).min(1, "Password is required"),
  rememberMe: checkboxField,
  redirectTo: z.string().optional(),
});

export const forgotPasswordSchema = z.object({ email: emailField });

export function resetPasswordFormSchema(bounds: { min: number; max: number }) {
  return z.object({ token: z.string().min(1), newPassword: passwordField(bounds) });
}

export const profileSchema = z.object({
  name: nameField,
  image: imageField.optional(),
});

export const changeEmailSchema = z.object({ newEmail: emailField });

export function changePasswordSchema(bounds: { min: number; max: number }) {
  return z.object({
    currentPassword: z.string({ error: "Current password is required" }),
    newPassword: passwordField(bounds),
    revokeOtherSessions: checkboxField,
  });
}

export function setPasswordSchema(bounds: { min: number; max: number }) {
  return z.object({ newPassword: passwordField(bounds) });
}

export const deleteAccountSchema = z.object({ password: z.string().optional() });
