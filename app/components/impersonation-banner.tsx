// Shown on every page while an admin acts as someone (issue 30): who, and a Stop button. A plain form post
// (/impersonation/stop), so it works without JavaScript, and placed first so it is the first thing read. A bar
// that stays at the top of the screen as the page scrolls, in a colour no other part of the site uses (issue 41).
import { Form } from "@remix-run/react";
import type { Viewer } from "~/http/viewer.server";

export function ImpersonationBanner({ viewer }: { viewer: Viewer }) {
  return (
    <div className="impersonation-banner" role="region" aria-label="Acting as another user">
      <Form method="post" action="/impersonation/stop" reloadDocument>
        <p>
          <span>
            You are acting as {viewer.name || viewer.email} ({viewer.email})
          </span>
          <button type="submit">Stop</button>
        </p>
      </Form>
    </div>
  );
}
