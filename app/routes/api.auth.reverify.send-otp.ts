import { requireSession } from "~/auth/session/sessions.server";
import { sendReverifyOtp } from "~/auth/step-up/reverify.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  handler: async ({ ctx }) => sendReverifyOtp(await requireSession(ctx)),
});
