import { inviteMemberBody } from "~/auth/organization/schemas";
import { inviteMember } from "~/auth/organization/invitations.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "POST",
  body: inviteMemberBody,
  handler: async ({ body, ctx }) => inviteMember(await requireSession(ctx), body),
});
