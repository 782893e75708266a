import { listTeamMembersQuery } from "~/auth/teams/schemas";
import { listTeamMembers } from "~/auth/teams/team-members.server";
import { requireSession } from "~/auth/session/sessions.server";
import { teamsOn } from "~/auth/teams/teams.server";
import { endpoint } from "~/http/endpoint.server";

export const { loader, action } = endpoint({
  available: teamsOn,
  method: "GET",
  // `teamId` (default: the session's active team) and a page (issue 42, ADR 044).
  query: listTeamMembersQuery,
  handler: async ({ query, ctx }) => listTeamMembers(await requireSession(ctx), query),
});
