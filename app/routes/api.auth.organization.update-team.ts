import { updateTeamBody } from "~/auth/teams/schemas";
import { updateTeam, teamsOn } from "~/auth/teams/teams.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  available: teamsOn,
  method: "POST",
  body: updateTeamBody,
  handler: async ({ body, ctx }) => updateTeam(await requireSession(ctx), body, ctx),
});
