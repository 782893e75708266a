import { z } from "zod";
import { changeEmail } from "~/auth/account/change-email.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint, optionalUrl } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ newEmail: z.string(), callbackURL: optionalUrl }),
  handler: async ({ body, ctx }) => {
    await changeEmail(ctx, await requireSession(ctx), body);
    return { status: true };
  },
});
