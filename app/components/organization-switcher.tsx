// The active-organization switcher: a select and a button, posting to /organizations (works without
// JavaScript) and coming back to the page it was used on.
import { Form, useLocation } from "@remix-run/react";

export interface SwitcherProps {
  data: { organizations: Array<{ id: string; name: string }>; activeId: string | null } | null;
}

export function OrganizationSwitcher({ data }: SwitcherProps) {
  const location = useLocation();
  if (!data || data.organizations.length === 0) return null;
  return (
    <Form method="post" action="/organizations?index" className="organization-switcher">
      <input type="hidden" name="intent" value="set-active" />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label htmlFor="active-organization">Active organization</label>{" "}
      <select id="active-organization" name="organizationId" defaultValue={data.activeId ?? ""}>
        <option value="">None</option>
        {data.organizations.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>{" "}
      <button type="submit">Switch</button>
    </Form>
  );
}
