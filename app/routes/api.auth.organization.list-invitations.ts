import { z } from "zod";
import { idField } from "~/auth/organization/schemas";
import { listInvitations } from "~/auth/organization/invitations.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: z.object({ organizationId: idField.optional() }),
  handler: async ({ query, ctx }) => listInvitations(await requireSession(ctx), query.organizationId),
});
