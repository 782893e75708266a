import { z } from "zod";
import { idField } from "~/auth/organization/schemas";
import { rejectInvitation } from "~/auth/organization/invitations.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ invitationId: idField, token: z.string().max(200).optional() }),
  handler: async ({ body, ctx }) => rejectInvitation(await requireSession(ctx), body.invitationId, body.token),
});
