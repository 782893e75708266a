import { z } from "zod";
import { idField, slugField } from "~/auth/organization/schemas";
import { getFullOrganization } from "~/auth/organization/organizations.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: z.object({ organizationId: idField.optional(), organizationSlug: slugField.optional() }),
  handler: async ({ query, ctx }) => getFullOrganization(await requireSession(ctx), query),
});
