import { requireSession } from "~/auth/session/sessions.server";
import { reverifyWithPassword } from "~/auth/step-up/reverify.server";
import { reverifyPasswordBody } from "~/auth/step-up/schemas";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: reverifyPasswordBody,
  handler: async ({ body, ctx }) => reverifyWithPassword(ctx, await requireSession(ctx), body),
});
