// One endpoint served at two paths: /email-otp/request-password-reset and its older name /forget-password/email-otp.
import { z } from "zod";
import { requestPasswordResetOtpAsVisitor } from "~/auth/email-otp/flows.server";
import { endpoint } from "~/http/endpoint.server";

export const requestPasswordResetOtpEndpoint = endpoint({
  method: "POST",
  body: z.object({ email: z.string() }),
  handler: ({ body, ctx }) => requestPasswordResetOtpAsVisitor(ctx, body),
});
