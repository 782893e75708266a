import { z } from "zod";
import { idField, slugField } from "~/auth/organization/schemas";
import { setActiveOrganization } from "~/auth/organization/organizations.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ organizationId: idField.nullable().optional(), organizationSlug: slugField.optional() }),
  handler: async ({ body, ctx }) => setActiveOrganization(await requireSession(ctx), body),
});
