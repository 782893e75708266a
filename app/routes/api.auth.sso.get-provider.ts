// GET /sso/get-provider?providerId=: one connection in the sanitized shape (403 for anyone but its organization's
// owners and admins, 404 unknown).
import { providerIdQuery } from "~/auth/sso/schemas";
import { getConnection } from "~/auth/sso/connections.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: providerIdQuery,
  handler: async ({ query, ctx }) => getConnection(await requireSession(ctx), query.providerId),
});
