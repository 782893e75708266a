// The Roles pages' permission checkboxes (issue 42, ADR 069): one per permission, named `permission` with values like
// "team:create", a fieldset per resource, labelled for people. Those the viewer does not hold are disabled, with the
// visible reason once above them (the server refuses them anyway: rule 2).
export interface PermissionGroup {
  resource: string;
  heading: string;
  permissions: Array<{ value: string; label: string; held: boolean; checked?: boolean }>;
}

export const NOT_HELD_NOTE = "You can only give permissions you have yourself";

export function PermissionCheckboxes({ groups, idPrefix, locked = false }: { groups: PermissionGroup[]; idPrefix: string; locked?: boolean }) {
  const someNotHeld = groups.some((g) => g.permissions.some((p) => !p.held));
  const noteId = `${idPrefix}-not-held`;
  return (
    <div className="permission-groups">
      {someNotHeld && !locked ? (
        <p id={noteId} className="muted">
          {NOT_HELD_NOTE}.
        </p>
      ) : null}
      {groups.map((group) => (
        <fieldset className="field" key={group.resource}>
          <legend>{group.heading}</legend>
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
                <label htmlFor={id}>{p.label}</label>
              </div>
            );
          })}
        </fieldset>
      ))}
    </div>
  );
}
