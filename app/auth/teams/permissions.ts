// The team rules of issue 42 (rule 1), each a named function that the domain enforces and the pages ask, so no
// rule is written twice. They read permissions through `roleAllows`, the organization's one question, with the
// member's custom roles (read by the caller with `customRolesAmong`) counted as the built-in ones are.
import { roleAllows, type CustomRoles } from "~/auth/organization/permissions";

export const mayCreateTeams = (actorRole: string, custom?: CustomRoles) => roleAllows(actorRole, { team: ["create"] }, custom);
export const mayUpdateTeams = (actorRole: string, custom?: CustomRoles) => roleAllows(actorRole, { team: ["update"] }, custom);
export const mayDeleteTeams = (actorRole: string, custom?: CustomRoles) => roleAllows(actorRole, { team: ["delete"] }, custom);
/** Adding someone to a team is changing a member (`member: update`), as Better Auth has it. */
export const mayAddTeamMembers = (actorRole: string, custom?: CustomRoles) => roleAllows(actorRole, { member: ["update"] }, custom);
export const mayRemoveTeamMembers = (actorRole: string, custom?: CustomRoles) => roleAllows(actorRole, { member: ["delete"] }, custom);

/**
 * A team's members are listed for its own members and for anyone who may change members (`member: update`):
 * Better Auth refuses an owner who is not in the team (#3693); here the one who may add and remove them sees them.
 */
export const mayListTeamMembers = (actorRole: string, inTeam: boolean, custom?: CustomRoles) => inTeam || roleAllows(actorRole, { member: ["update"] }, custom);

/** Another member's teams need `member: update`; one's own, membership alone. */
export const mayListTeamsOf = (actor: { userId: string; role: string }, userId: string, custom?: CustomRoles) =>
  actor.userId === userId || roleAllows(actor.role, { member: ["update"] }, custom);
