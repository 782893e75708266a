import { z } from "zod";
import { idField } from "~/auth/organization/schemas";
import { getActiveMemberRole } from "~/auth/organization/members.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: z.object({ userId: idField.optional(), organizationId: idField.optional() }),
  handler: async ({ query, ctx }) => getActiveMemberRole(await requireSession(ctx), query),
});
