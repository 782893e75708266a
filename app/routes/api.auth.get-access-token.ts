import { accountSelector } from "~/auth/social/schemas";
import { requireSession } from "~/auth/session/sessions.server";
import { getAccessToken } from "~/auth/social/accounts.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: accountSelector,
  handler: async ({ body, ctx }) => getAccessToken((await requireSession(ctx)).user.id, body),
});
