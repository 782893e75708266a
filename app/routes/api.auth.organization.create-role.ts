import { createRoleBody } from "~/auth/organization/schemas";
import { createRole } from "~/auth/organization/roles.server";
import { requireSession } from "~/auth/session/sessions.server";
import { customRolesOn } from "~/auth/organization/custom-roles.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  available: customRolesOn,
  method: "POST",
  body: createRoleBody,
  handler: async ({ body, ctx }) => createRole(await requireSession(ctx), body, ctx),
});
