import { requireSession } from "~/auth/session/sessions.server";
import { refreshAccountToken } from "~/auth/social/accounts.server";
import { endpoint } from "~/http/endpoint.server";
import { accountSelector } from "~/auth/social/schemas";

export const { loader, action } = endpoint({
  method: "POST",
  body: accountSelector,
  handler: async ({ body, ctx }) => refreshAccountToken((await requireSession(ctx)).user.id, body),
});
