import { deleteRoleBody } from "~/auth/organization/schemas";
import { assertCustomRolesOn, deleteRole } from "~/auth/organization/roles.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: deleteRoleBody,
  // AUTH_CUSTOM_ROLES=off: 404 before anything else is asked.
  handler: async ({ body, ctx }) => (assertCustomRolesOn(), deleteRole(await requireSession(ctx), body, ctx)),
});
