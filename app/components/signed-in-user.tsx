// The header's "Signed in as …" and "Sign out": rendered on the server from the root loader (so it is there without
// JavaScript, and there is no flash), then kept live by the client's session (app/client): it follows a sign-out
// or a new name in any open tab without a reload.
import { Form, Link } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { authClient } from "~/client/auth-client";
import { SubmitButton } from "~/components/forms";
import type { Viewer } from "~/http/viewer.server";
import { useT } from "~/i18n/react";

export function SignedInUser({ viewer }: { viewer: Viewer | null }) {
  const session = authClient.useSession();
  const { t, rich } = useT();
  useAnnounceLoaderChanges(viewer);
  // Until the client's first answer, the server's; after it, the live one.
  // An account without a name yet (made by a sign-in code) is shown by its address.
  const user = session.isPending ? viewer : session.data?.user;
  const name = user?.name || user?.email;
  if (!name) return null;
  // An admin acting as this person signs out of nothing: the header's button ends the acting (the banner's Stop)
  // and gives them their own session back, instead of signing the admin out entirely.
  if (viewer?.impersonated) {
    return (
      <div className="header-account">
        <p className="signed-in-as">
          {rich("layout.signedInAs", { name }, { link: (chunks) => <Link key="account" to="/account"><bdi>{chunks}</bdi></Link> })}
        </p>
        <Form method="post" action="/impersonation/stop" reloadDocument>
          <SubmitButton className="secondary small">{rich("layout.stopActingAs", { name }, { bdi: (chunks) => <bdi key="name">{chunks}</bdi> })}</SubmitButton>
        </Form>
      </div>
    );
  }
  // Sign out on every page: a plain form post (works without JavaScript), answered on the home page.
  return (
    <div className="header-account">
      <p className="signed-in-as">
        {rich("layout.signedInAs", { name }, { link: (chunks) => <Link key="account" to="/account"><bdi>{chunks}</bdi></Link> })}
      </p>
      <Form method="post" action="/account?index">
        <SubmitButton name="intent" value="sign-out" className="secondary small">
          {t("layout.signOut")}
        </SubmitButton>
      </Form>
    </div>
  );
}

/**
 * A page form (sign-out, the profile or two-factor page) changes the session or user without the client: Remix
 * then revalidates the root loader. When its viewer changes, the client's session is refetched here and in
 * every other tab.
 */
function useAnnounceLoaderChanges(viewer: Viewer | null) {
  const key = viewer ? `${viewer.id}\n${viewer.name}\n${viewer.updatedAt}` : "";
  const previous = useRef(key);
  useEffect(() => {
    if (previous.current === key) return;
    previous.current = key;
    authClient.$sessionChanged();
  }, [key]);
}
