import { createTeamBody } from "~/auth/teams/schemas";
import { createTeam, teamsOn } from "~/auth/teams/teams.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  available: teamsOn,
  method: "POST",
  body: createTeamBody,
  handler: async ({ body, ctx }) => createTeam(await requireSession(ctx), body, ctx),
});
