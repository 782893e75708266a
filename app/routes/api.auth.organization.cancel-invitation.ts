import { z } from "zod";
import { idField } from "~/auth/organization/schemas";
import { cancelInvitation } from "~/auth/organization/invitations.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: z.object({ invitationId: idField }),
  handler: async ({ body, ctx }) => cancelInvitation(await requireSession(ctx), body.invitationId),
});
