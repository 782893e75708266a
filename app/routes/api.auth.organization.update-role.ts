import { updateRoleBody } from "~/auth/organization/schemas";
import { updateRole } from "~/auth/organization/roles.server";
import { requireSession } from "~/auth/session/sessions.server";
import { customRolesOn } from "~/auth/organization/custom-roles.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  available: customRolesOn,
  method: "POST",
  body: updateRoleBody,
  handler: async ({ body, ctx }) => updateRole(await requireSession(ctx), body, ctx),
});
