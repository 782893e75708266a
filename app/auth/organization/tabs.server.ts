// Which of an organization's tabs lead somewhere: a capability the operator turned off (AUTH_TEAMS,
// AUTH_CUSTOM_ROLES) has no tab, on every page that shows the tabs.
import { customRolesOn } from "~/auth/organization/custom-roles.server";
import { teamsOn } from "~/auth/teams/teams.server";

export const shownTabs = () => ({ teams: teamsOn(), roles: customRolesOn() });
