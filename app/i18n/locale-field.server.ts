// `locale` in a JSON body (sign-up, update-user), Better Auth's userLocaleField: a language on offer, or null to
// clear it. Better Auth stores any string here; Latchkey refuses one it cannot serve (a 400 VALIDATION_ERROR).
import { z } from "zod";
import { isOffered, offeredLanguages } from "~/i18n/choose.server";

export const localeField = z
  .string()
  .max(35)
  .nullable()
  .optional()
  .superRefine((value, context) => {
    if (value != null && !isOffered(value)) context.addIssue({ code: "custom", message: `must be one of ${offeredLanguages().join(", ")}, or null` });
  });
