import { listUserInvitations } from "~/auth/organization/invitations.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  handler: async ({ ctx }) => listUserInvitations(await requireSession(ctx)),
});
