import { z } from "zod";
import { idField } from "~/auth/organization/schemas";
import { listMembers } from "~/auth/organization/members.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: z.object({
    organizationId: idField.optional(),
    limit: z.coerce.number().int().min(1).max(1000).optional(),
    offset: z.coerce.number().int().min(0).optional(),
  }),
  handler: async ({ query, ctx }) => listMembers(await requireSession(ctx), query),
});
