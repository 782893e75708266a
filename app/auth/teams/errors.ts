// Teams' entries in the one error catalogue (issue 42), worded as Better Auth 1.7's organization plugin words them
// with teams on, so its client sees the codes it knows. Spread into ERRORS. A few of Better Auth's team codes are
// not their messages upper-cased; TEAM_CODES_NOT_FROM_MESSAGES lists them for the catalogue's test.
export const TEAM_ERRORS = {
  TEAM_ALREADY_EXISTS: [400, "Team already exists"],
  TEAM_NOT_FOUND: [400, "Team not found"],
  YOU_HAVE_REACHED_THE_MAXIMUM_NUMBER_OF_TEAMS: [400, "You have reached the maximum number of teams"],
  UNABLE_TO_REMOVE_LAST_TEAM: [400, "Unable to remove last team"],
  YOU_ARE_NOT_ALLOWED_TO_CREATE_TEAMS_IN_THIS_ORGANIZATION: [403, "You are not allowed to create teams in this organization"],
  YOU_ARE_NOT_ALLOWED_TO_DELETE_TEAMS_IN_THIS_ORGANIZATION: [403, "You are not allowed to delete teams in this organization"],
  YOU_ARE_NOT_ALLOWED_TO_UPDATE_THIS_TEAM: [403, "You are not allowed to update this team"],
  TEAM_MEMBER_LIMIT_REACHED: [403, "Team member limit reached"],
  USER_IS_NOT_A_MEMBER_OF_THE_TEAM: [403, "User is not a member of the team"],
  YOU_CAN_NOT_ACCESS_THE_MEMBERS_OF_THIS_TEAM: [403, "You are not allowed to list the members of this team"],
  YOU_DO_NOT_HAVE_AN_ACTIVE_TEAM: [400, "You do not have an active team"],
  YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER: [403, "You are not allowed to create a new member"],
  YOU_ARE_NOT_ALLOWED_TO_REMOVE_A_TEAM_MEMBER: [403, "You are not allowed to remove a team member"],
  INVALID_TEAM_ID: [400, "Team id contains a reserved character"],
} as const;

/** Better Auth's codes whose message says something else (its own wording, kept so its client matches). */
export const TEAM_CODES_NOT_FROM_MESSAGES = ["YOU_CAN_NOT_ACCESS_THE_MEMBERS_OF_THIS_TEAM", "YOU_ARE_NOT_ALLOWED_TO_CREATE_A_NEW_TEAM_MEMBER", "INVALID_TEAM_ID"] as const;
