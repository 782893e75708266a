import { AuthError } from "~/auth/errors";
import { emailField } from "~/auth/schemas";

/** Lowercased, trimmed address, or INVALID_EMAIL (spec §3: e-mail is stored lowercased). */
export function normalizeEmail(email: string): string {
  const parsed = emailField.safeParse(email);
  if (!parsed.success) throw new AuthError("INVALID_EMAIL");
  return parsed.data.toLowerCase();
}
