import { z } from "zod";
import { apiImageField, apiNameField } from "~/auth/schemas";
import { requireSession } from "~/auth/session/sessions.server";
import { updateUser } from "~/auth/account/users.server";
import { endpoint } from "~/http/endpoint.server";
import { localeField } from "~/i18n/locale-field.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({
    name: apiNameField.optional(),
    image: apiImageField,
    email: z.unknown().optional(),
    username: z.string().max(200).optional(),
    displayUsername: z.string().max(200).optional(),
    locale: localeField,
  }),
  handler: async ({ body, ctx }) => {
    await updateUser(ctx, await requireSession(ctx), body);
    return { status: true };
  },
});
