import { sendTwoFactorOtp } from "~/auth/two-factor/verify.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  handler: ({ ctx }) => sendTwoFactorOtp(ctx),
});
