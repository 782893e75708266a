import { sendVerificationOtpAsVisitor } from "~/auth/email-otp/flows.server";
import { sendOtpBody } from "~/auth/email-otp/schemas";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: sendOtpBody,
  handler: ({ body, ctx }) => sendVerificationOtpAsVisitor(ctx, body),
});
