import { z } from "zod";
import { idField } from "~/auth/organization/schemas";
import { getInvitation } from "~/auth/organization/invitations.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: z.object({ id: idField }),
  handler: async ({ query, ctx }) => getInvitation(await requireSession(ctx), query.id),
});
