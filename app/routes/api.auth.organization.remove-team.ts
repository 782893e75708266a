import { removeTeamBody } from "~/auth/teams/schemas";
import { removeTeam, teamsOn } from "~/auth/teams/teams.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  available: teamsOn,
  method: "POST",
  body: removeTeamBody,
  handler: async ({ body, ctx }) => removeTeam(await requireSession(ctx), body, ctx),
});
