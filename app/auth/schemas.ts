// Field rules shared by the JSON API, the page forms (server and browser, through Conform) and the domain.
// Messages come from the error catalogue so every door says the same words.
import { z } from "zod";
import { ERRORS } from "~/auth/errors";
import { identifierField, usernameField } from "~/auth/username/schemas";

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

export const imageField = z.string().trim().max(2048).url("Invalid image URL");

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
  username: usernameField.optional(),
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
