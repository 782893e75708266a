// Words the organization pages share, in the page's language: the built-in roles' names and the permissions as
// people read them. The values programs read (role keys such as "admin", "team:create") never change; a custom
// role's name is its organization's own words, shown as written and isolated (<bdi>).
import { parseRoles } from "~/auth/organization/permissions";
import { isBuiltInRole, roleName } from "~/auth/organization/role-names";
import { IsolatedList } from "~/components/isolated-list";
import type { Translator } from "~/i18n/format";
import { useT } from "~/i18n/react";

const PERMISSION_KEYS: Record<string, string> = {
  "organization:update": "orgs.permission.organizationUpdate",
  "organization:delete": "orgs.permission.organizationDelete",
  "member:create": "orgs.permission.memberCreate",
  "member:update": "orgs.permission.memberUpdate",
  "member:delete": "orgs.permission.memberDelete",
  "invitation:create": "orgs.permission.invitationCreate",
  "invitation:cancel": "orgs.permission.invitationCancel",
  "team:create": "orgs.permission.teamCreate",
  "team:update": "orgs.permission.teamUpdate",
  "team:delete": "orgs.permission.teamDelete",
  "ac:create": "orgs.permission.acCreate",
  "ac:read": "orgs.permission.acRead",
  "ac:update": "orgs.permission.acUpdate",
  "ac:delete": "orgs.permission.acDelete",
};

const RESOURCE_KEYS: Record<string, string> = {
  organization: "orgs.resource.organization",
  member: "orgs.resource.member",
  invitation: "orgs.resource.invitation",
  team: "orgs.resource.team",
  ac: "orgs.resource.ac",
};

export { roleName };

/** "team:create" → "Create teams" in the page's language (an unknown value as itself). */
export const permissionName = (t: Translator["t"], value: string) => (PERMISSION_KEYS[value] ? t(PERMISSION_KEYS[value]) : value);

/** A resource's heading on the Roles pages. */
export const resourceName = (t: Translator["t"], resource: string) => (RESOURCE_KEYS[resource] ? t(RESOURCE_KEYS[resource]) : resource);

/** A member's stored role ("admin,member") as people read it, side by side ("admin, member"); custom names isolated. */
export function RoleNames({ role }: { role: string }) {
  const { t } = useT();
  return <IsolatedList items={parseRoles(role)} type="unit" render={(name) => (isBuiltInRole(name) ? roleName(t, name) : <bdi>{name}</bdi>)} />;
}

/** A role's permissions in words, side by side ("Invite people, Create teams"), or "No permissions". */
export function PermissionNames({ permissions }: { permissions: string[] }) {
  const { t } = useT();
  if (permissions.length === 0) return <>{t("orgs.roles.noPermissions")}</>;
  return <IsolatedList items={permissions} type="unit" render={(p) => permissionName(t, p)} />;
}
