import { z } from "zod";
import { requestVerificationEmail } from "~/auth/account/email-verification.server";
import { endpoint, optionalUrl } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ email: z.string(), callbackURL: optionalUrl }),
  handler: ({ body, ctx }) => requestVerificationEmail(ctx, body),
});
