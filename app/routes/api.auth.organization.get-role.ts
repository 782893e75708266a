import { getRoleQuery } from "~/auth/organization/schemas";
import { getRole } from "~/auth/organization/roles.server";
import { requireSession } from "~/auth/session/sessions.server";
import { customRolesOn } from "~/auth/organization/custom-roles.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  available: customRolesOn,
  method: "GET",
  query: getRoleQuery,
  handler: async ({ query, ctx }) => getRole(await requireSession(ctx), query),
});
