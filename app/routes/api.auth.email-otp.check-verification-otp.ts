import { checkVerificationOtp } from "~/auth/email-otp/flows.server";
import { checkOtpBody } from "~/auth/email-otp/schemas";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: checkOtpBody,
  handler: ({ body }) => checkVerificationOtp(body),
});
