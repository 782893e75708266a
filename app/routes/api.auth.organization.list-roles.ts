import { listRolesQuery } from "~/auth/organization/schemas";
import { listRoles } from "~/auth/organization/roles.server";
import { requireSession } from "~/auth/session/sessions.server";
import { customRolesOn } from "~/auth/organization/custom-roles.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  available: customRolesOn,
  method: "GET",
  // The first 100 without `limit` (Better Auth takes no paging here; a client sending none sees its answer).
  query: listRolesQuery,
  handler: async ({ query, ctx }) => listRoles(await requireSession(ctx), query),
});
