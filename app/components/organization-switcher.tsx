// The active-organization switcher: a select and a button, posting to /organizations (works without
// JavaScript) and coming back to the page it was used on, which confirms "Switched to …" at its top. With
// JavaScript it switches through the client, so every open tab's switcher follows the active organization
// (useActiveOrganization), the page's data is reloaded, and the confirmation is shown (and read) beside it.
import { Form, Link, useLocation, useRevalidator } from "@remix-run/react";
import { useEffect, useState, type FormEvent } from "react";
import { authClient } from "~/client/auth-client";
import { StatusMessage } from "~/components/forms";
import { useT } from "~/i18n/react";

export interface SwitcherProps {
  /** `more`: the person is in more organizations than listed (the first 100, and the active one). */
  data: { organizations: Array<{ id: string; name: string }>; activeId: string | null; more?: boolean } | null;
}

/** The confirmation of a switch, the same with JavaScript and without (said in the reader's language where shown). */
export const switchedWords = (name: string | null) => (name ? `Switched to ${name}.` : "No organization is active now.");

export function OrganizationSwitcher({ data }: SwitcherProps) {
  if (!data || data.organizations.length === 0) return null;
  return <Switcher organizations={data.organizations} activeId={data.activeId} more={data.more === true} />;
}

function Switcher({ organizations, activeId: loadedActiveId, more }: { organizations: Array<{ id: string; name: string }>; activeId: string | null; more: boolean }) {
  const { t, rich, said } = useT();
  const location = useLocation();
  const revalidator = useRevalidator();
  const active = authClient.useActiveOrganization();
  // The loader's answer until the client's first; then the live one.
  const activeId = active.isPending ? loadedActiveId : (active.data?.id ?? null);
  const [selected, setSelected] = useState(activeId ?? "");
  const [error, setError] = useState(false);
  const [switched, setSwitched] = useState<string | null>(null);
  useEffect(() => setSelected(activeId ?? ""), [activeId]);
  // The confirmation takes the focus (StatusMessage); once the reloaded page has settled around it, it is
  // scrolled wholly into view if the reload moved it (issue 41).
  const reloading = revalidator.state !== "idle";
  useEffect(() => {
    if (switched && !reloading) document.getElementById("switched")?.scrollIntoView({ block: "nearest" });
  }, [switched, reloading]);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setError(false);
    setSwitched(null);
    const result = await authClient.organization.setActive({ organizationId: selected || null });
    if (result.error) return setError(true);
    setSwitched(switchedWords(organizations.find((o) => o.id === selected)?.name ?? null));
    revalidator.revalidate(); // the client refetches the active organization itself (and tells the other tabs)
  }

  return (
    <Form method="post" action="/organizations?index" className="organization-switcher" onSubmit={onSubmit}>
      {/* Above the switcher, not below it: at the page's end (the account pages on a phone) below is the screen's
          bottom edge, and the page cannot scroll it any higher. */}
      {switched ? (
        <StatusMessage id="switched" focusKey={switched}>
          {said(switched)}
        </StatusMessage>
      ) : null}
      <input type="hidden" name="intent" value="set-active" />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <label htmlFor="active-organization">{t("orgs.switcher.label")}</label>{" "}
      <select id="active-organization" name="organizationId" aria-describedby="active-organization-hint" value={selected} onChange={(event) => setSelected(event.target.value)}>
        <option value="">{t("orgs.switcher.none")}</option>
        {organizations.map((o) => (
          <option key={o.id} value={o.id}>
            {o.name}
          </option>
        ))}
      </select>{" "}
      <button type="submit">{t("orgs.switcher.submit")}</button>
      <span id="active-organization-hint" className="hint organization-switcher-hint">
        {t("orgs.switcher.hint")}
      </span>
      {more ? (
        <span className="muted">
          {" "}
          {rich("orgs.switcher.more", { count: 100 }, { link: (chunks) => <Link to="/organizations">{chunks}</Link> })}
        </span>
      ) : null}
      {error ? (
        <span className="errors" role="alert">
          {t("orgs.switcher.failed")}
        </span>
      ) : null}
    </Form>
  );
}
