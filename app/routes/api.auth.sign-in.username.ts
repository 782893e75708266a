import { z } from "zod";
import { signInWithUsername } from "~/auth/username/username.server";
import { endpoint, optionalUrl } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({
    username: z.string().max(200),
    password: z.string(),
    rememberMe: z.boolean().optional(),
    callbackURL: optionalUrl,
  }),
  handler: ({ body, ctx }) => signInWithUsername(ctx, body),
});
