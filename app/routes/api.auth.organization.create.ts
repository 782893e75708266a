import { createOrganizationBody } from "~/auth/organization/schemas";
import { createForSession } from "~/auth/organization/organizations.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: createOrganizationBody,
  handler: async ({ body, ctx }) => createForSession(await requireSession(ctx), body),
});
