// The team rules of issue 42 (rule 1), each a named function that the domain enforces and the pages ask, so no
// rule is written twice. They read permissions through `roleAllows`, the organization's one question.
import { roleAllows } from "~/auth/organization/permissions";

export const mayCreateTeams = (actorRole: string) => roleAllows(actorRole, { team: ["create"] });
export const mayUpdateTeams = (actorRole: string) => roleAllows(actorRole, { team: ["update"] });
export const mayDeleteTeams = (actorRole: string) => roleAllows(actorRole, { team: ["delete"] });
/** Adding someone to a team is changing a member (`member: update`), as Better Auth has it. */
export const mayAddTeamMembers = (actorRole: string) => roleAllows(actorRole, { member: ["update"] });
export const mayRemoveTeamMembers = (actorRole: string) => roleAllows(actorRole, { member: ["delete"] });

/**
 * A team's members are listed for its own members and for anyone who may change members (`member: update`):
 * Better Auth refuses an owner who is not in the team (#3693); here the one who may add and remove them sees them.
 */
export const mayListTeamMembers = (actorRole: string, inTeam: boolean) => inTeam || roleAllows(actorRole, { member: ["update"] });

/** Another member's teams need `member: update`; one's own, membership alone. */
export const mayListTeamsOf = (actor: { userId: string; role: string }, userId: string) =>
  actor.userId === userId || roleAllows(actor.role, { member: ["update"] });
