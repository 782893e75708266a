import { setActiveTeamBody } from "~/auth/teams/schemas";
import { setActiveTeam } from "~/auth/teams/team-members.server";
import { requireSession } from "~/auth/session/sessions.server";
import { teamsOn } from "~/auth/teams/teams.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  available: teamsOn,
  method: "POST",
  body: setActiveTeamBody,
  handler: async ({ body, ctx }) => setActiveTeam(await requireSession(ctx), body.teamId),
});
