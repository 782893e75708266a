import { listUserTeamsQuery } from "~/auth/teams/schemas";
import { listUserTeams } from "~/auth/teams/team-members.server";
import { requireSession } from "~/auth/session/sessions.server";
import { teamsOn } from "~/auth/teams/teams.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  available: teamsOn,
  method: "GET",
  query: listUserTeamsQuery,
  handler: async ({ query, ctx }) => listUserTeams(await requireSession(ctx), query),
});
