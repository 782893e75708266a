import { verifyEmailWithOtp } from "~/auth/email-otp/flows.server";
import { emailOtpBody } from "~/auth/email-otp/schemas";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: emailOtpBody,
  handler: ({ body, ctx }) => verifyEmailWithOtp(ctx, body),
});
