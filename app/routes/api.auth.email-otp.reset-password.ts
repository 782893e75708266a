import { resetPasswordWithOtp } from "~/auth/email-otp/flows.server";
import { resetWithOtpBody } from "~/auth/email-otp/schemas";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: resetWithOtpBody,
  handler: ({ body, ctx }) => resetPasswordWithOtp(ctx, body),
});
