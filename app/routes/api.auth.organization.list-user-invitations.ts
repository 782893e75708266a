import { listUserInvitations } from "~/auth/organization/invitations.server";
import { pageQuery } from "~/auth/schemas";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  // The first 100 without `limit` (Better Auth's bound); `limit`/`offset` page further.
  query: pageQuery,
  handler: async ({ query, ctx }) => listUserInvitations(await requireSession(ctx), query),
});
