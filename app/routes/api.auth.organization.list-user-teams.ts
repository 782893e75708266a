import { listUserTeamsQuery } from "~/auth/teams/schemas";
import { listUserTeams } from "~/auth/teams/team-members.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  method: "GET",
  query: listUserTeamsQuery,
  handler: async ({ query, ctx }) => listUserTeams(await requireSession(ctx), query),
});
