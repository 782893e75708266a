import { listRolesQuery } from "~/auth/organization/schemas";
import { assertCustomRolesOn, listRoles } from "~/auth/organization/roles.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  // The first 100 without `limit` (Better Auth takes no paging here; a client sending none sees its answer).
  query: listRolesQuery,
  // AUTH_CUSTOM_ROLES=off: 404 before anything else is asked.
  handler: async ({ query, ctx }) => (assertCustomRolesOn(), listRoles(await requireSession(ctx), query)),
});
