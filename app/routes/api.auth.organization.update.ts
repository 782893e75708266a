import { updateOrganizationBody } from "~/auth/organization/schemas";
import { updateOrganization } from "~/auth/organization/organizations.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: updateOrganizationBody,
  handler: async ({ body, ctx }) => updateOrganization(await requireSession(ctx), body),
});
