import { z } from "zod";
import { signInWithEmail } from "~/auth/sign-in/credentials.server";
import { endpoint, optionalUrl } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({
    email: z.string(),
    password: z.string(),
    callbackURL: optionalUrl,
    rememberMe: z.boolean().optional(),
  }),
  handler: ({ body, ctx }) => signInWithEmail(ctx, body),
});
