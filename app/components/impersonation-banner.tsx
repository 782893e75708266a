// Shown on every page while an admin acts as someone (issue 30): who, and a Stop button. A plain form post
// (/impersonation/stop), so it works without JavaScript, and placed first so it is the first thing read.
import { Form } from "@remix-run/react";
import type { Viewer } from "~/http/viewer.server";

export function ImpersonationBanner({ viewer }: { viewer: Viewer }) {
  return (
    <div className="impersonation-banner" role="region" aria-label="Acting as another user">
      <Form method="post" action="/impersonation/stop" reloadDocument>
        <p>
          You are acting as {viewer.name || viewer.email} ({viewer.email}) —{" "}
          <button type="submit" className="link-button">
            Stop
          </button>
        </p>
      </Form>
    </div>
  );
}
