// An account's role as the admin console shows it: the built-in roles ("admin", "user") in the reader's language,
// any other role (an operator's own, from the API) as written; a list of roles ("admin,support") as a list.
import { rolesOf } from "~/auth/admin/permissions";
import { useT } from "~/i18n/react";

const BUILT_IN: Record<string, string> = { admin: "admin.role.admin", user: "admin.role.user" };

export function AdminRole({ role }: { role: string | null }) {
  const t = useT();
  const roles = rolesOf(role);
  const builtIn = roles.every((r) => Object.hasOwn(BUILT_IN, r));
  const shown = t.list(roles.map((r) => (Object.hasOwn(BUILT_IN, r) ? t.t(BUILT_IN[r]) : r)), "unit");
  return builtIn ? <>{shown}</> : <bdi>{shown}</bdi>;
}
