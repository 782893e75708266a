import { deleteRoleBody } from "~/auth/organization/schemas";
import { deleteRole } from "~/auth/organization/roles.server";
import { requireSession } from "~/auth/session/sessions.server";
import { customRolesOn } from "~/auth/organization/custom-roles.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  available: customRolesOn,
  method: "POST",
  body: deleteRoleBody,
  handler: async ({ body, ctx }) => deleteRole(await requireSession(ctx), body, ctx),
});
