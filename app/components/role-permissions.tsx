// The Roles pages' permission checkboxes (issue 42, ADR 069): one per permission, named `permission` with values like
// "team:create", a fieldset per resource, labelled for people in their language. Those the viewer does not hold are
// disabled, with the visible reason once above them (the server refuses them anyway: rule 2).
import { permissionName, resourceName } from "~/components/organization-words";
import { useT } from "~/i18n/react";

export interface PermissionGroup {
  resource: string;
  heading: string;
  permissions: Array<{ value: string; label: string; held: boolean; checked?: boolean }>;
}

export function PermissionCheckboxes({ groups, idPrefix, locked = false }: { groups: PermissionGroup[]; idPrefix: string; locked?: boolean }) {
  const { t } = useT();
  const someNotHeld = groups.some((g) => g.permissions.some((p) => !p.held));
  const noteId = `${idPrefix}-not-held`;
  return (
    <div className="permission-groups">
      {someNotHeld && !locked ? (
        <p id={noteId} className="muted">
          {t("orgs.roles.notHeldNote")}
        </p>
      ) : null}
      {groups.map((group) => (
        <fieldset className="field" key={group.resource}>
          <legend>{resourceName(t, group.resource)}</legend>
          {group.permissions.map((p) => {
            const id = `${idPrefix}-${p.value.replace(":", "-")}`;
            return (
              <div className="field checkbox" key={p.value}>
                <input
                  type="checkbox"
                  id={id}
                  name="permission"
                  value={p.value}
                  defaultChecked={p.checked}
                  disabled={locked || !p.held}
                  aria-describedby={!p.held && !locked ? noteId : undefined}
                />
                <label htmlFor={id}>{permissionName(t, p.value)}</label>
              </div>
            );
          })}
        </fieldset>
      ))}
    </div>
  );
}
