import { requireSession } from "~/auth/session/sessions.server";
import { setOtpBody } from "~/auth/two-factor/schemas";
import { setTwoFactorOtp } from "~/auth/two-factor/settings.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: setOtpBody,
  handler: async ({ body, ctx }) => setTwoFactorOtp(ctx, await requireSession(ctx), body),
});
