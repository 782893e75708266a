import { teamMemberBody } from "~/auth/teams/schemas";
import { removeTeamMember } from "~/auth/teams/team-members.server";
import { requireSession } from "~/auth/session/sessions.server";
import { teamsOn } from "~/auth/teams/teams.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  available: teamsOn,
  method: "POST",
  body: teamMemberBody,
  handler: async ({ body, ctx }) => removeTeamMember(await requireSession(ctx), body, ctx),
});
