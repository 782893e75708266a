// One endpoint served at two paths: /forget-password (the specification's name) and /request-password-reset
// (Better Auth's newer name).
import { z } from "zod";
import { requestPasswordResetAsVisitor } from "~/auth/account/password-flows.server";
import { endpoint, optionalUrl } from "~/http/endpoint.server";

export const requestPasswordResetEndpoint = endpoint({
  method: "POST",
  body: z.object({ email: z.string(), redirectTo: optionalUrl }),
  handler: ({ body, ctx }) => requestPasswordResetAsVisitor(ctx, body),
});
