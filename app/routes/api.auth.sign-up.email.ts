import { z } from "zod";
import { apiImageField, apiNameField } from "~/auth/schemas";
import { signUpWithEmail } from "~/auth/sign-in/credentials.server";
import { endpoint, optionalUrl } from "~/http/endpoint.server";
import { localeField } from "~/i18n/locale-field.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({
    name: apiNameField,
    email: z.string(),
    password: z.string(),
    image: apiImageField,
    callbackURL: optionalUrl,
    rememberMe: z.boolean().optional(),
    username: z.string().max(200).optional(),
    displayUsername: z.string().max(200).optional(),
    locale: localeField,
  }),
  handler: ({ body, ctx }) => signUpWithEmail(ctx, body),
});
