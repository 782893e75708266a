import { requireSession } from "~/auth/session/sessions.server";
import { listAccounts } from "~/auth/social/accounts.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  handler: async ({ ctx }) => listAccounts((await requireSession(ctx)).user.id),
});
