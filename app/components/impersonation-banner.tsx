// Shown on every page while an admin acts as someone (issue 30): who, and a Stop button. A plain form post
// (/impersonation/stop), so it works without JavaScript, and placed first so it is the first thing read. A bar
// that stays at the top of the screen as the page scrolls, in a colour no other part of the site uses (issue 41).
import { Form } from "@remix-run/react";
import type { Viewer } from "~/http/viewer.server";
import { useT } from "~/i18n/react";

export function ImpersonationBanner({ viewer }: { viewer: Viewer }) {
  const { t, rich } = useT();
  return (
    <div className="impersonation-banner" role="region" aria-label={t("impersonation.region")}>
      <Form method="post" action="/impersonation/stop" reloadDocument>
        <p>
          <span>
            {rich(
              "impersonation.actingAs",
              { name: viewer.name || viewer.email, email: viewer.email },
              {
                bdi: (chunks) => <bdi key="name">{chunks}</bdi>,
                ltr: (chunks) => (
                  <span key="email" dir="ltr">
                    {chunks}
                  </span>
                ),
              },
            )}
          </span>
          <button type="submit">{t("impersonation.stop")}</button>
        </p>
      </Form>
    </div>
  );
}
