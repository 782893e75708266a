import { requireSession } from "~/auth/session/sessions.server";
import { reverifyWithOtp } from "~/auth/step-up/reverify.server";
import { reverifyCodeBody } from "~/auth/step-up/schemas";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: reverifyCodeBody,
  handler: async ({ body, ctx }) => reverifyWithOtp(ctx, await requireSession(ctx), body),
});
