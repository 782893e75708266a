import { listOrganizations } from "~/auth/organization/organizations.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  handler: async ({ ctx }) => listOrganizations((await requireSession(ctx)).user.id),
});
