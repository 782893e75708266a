import { createRoleBody } from "~/auth/organization/schemas";
import { assertCustomRolesOn, createRole } from "~/auth/organization/roles.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: createRoleBody,
  // AUTH_CUSTOM_ROLES=off: 404 before anything else is asked.
  handler: async ({ body, ctx }) => (assertCustomRolesOn(), createRole(await requireSession(ctx), body, ctx)),
});
