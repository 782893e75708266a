import { listTeamsQuery } from "~/auth/teams/schemas";
import { listTeams, teamsOn } from "~/auth/teams/teams.server";
import { requireSession } from "~/auth/session/sessions.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  available: teamsOn,
  method: "GET",
  // A page (issue 42, ADR 044): 100 without `limit`; Better Auth takes neither parameter.
  query: listTeamsQuery,
  handler: async ({ query, ctx }) => listTeams(await requireSession(ctx), query),
});
