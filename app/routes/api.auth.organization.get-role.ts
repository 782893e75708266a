import { getRoleQuery } from "~/auth/organization/schemas";
import { assertCustomRolesOn, getRole } from "~/auth/organization/roles.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: getRoleQuery,
  // AUTH_CUSTOM_ROLES=off: 404 before anything else is asked.
  handler: async ({ query, ctx }) => (assertCustomRolesOn(), getRole(await requireSession(ctx), query)),
});
