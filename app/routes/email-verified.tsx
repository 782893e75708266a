// Where e-mailed verification and change links land (their default callbackURL). What happened comes from the
// link's own redirect (a one-time message set by GET /api/auth/verify-email on success, `?error=` on failure):
// opened directly, with neither, the page claims nothing.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { StatusMessage } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { takeFlashContent } from "~/http/flash.server";
import { verifyLinkProblem } from "~/http/page-messages.server";
import { useT } from "~/i18n/react";

export const meta = pageTitle<{ error: string | null }>("verified.pageTitle", (data) => Boolean(data.error));

export async function loader({ request }: LoaderFunctionArgs) {
  const headers = new Headers();
  const error = new URL(request.url).searchParams.get("error");
  const flash = error ? null : takeFlashContent(request, headers);
  return data({ error: verifyLinkProblem(error), message: flash?.text || null, link: flash?.link ?? null }, { headers });
}

export default function EmailVerified() {
  const { error, message, link } = useLoaderData<typeof loader>();
  const { t, said } = useT();
  return (
    <section className="narrow">
      {error ? (
        <>
          <h1>{t("verified.failed")}</h1>
          <p>{said(error)}</p>
        </>
      ) : message ? (
        <>
          <h1>{t("verified.pageTitle")}</h1>
          <StatusMessage>
            {said(message)}
            {link ? (
              <>
                {" "}
                <Link to={link.href}>{said(link.text)}</Link>
              </>
            ) : null}
          </StatusMessage>
        </>
      ) : (
        <>
          <h1>{t("verified.pageTitle")}</h1>
          <p>{t("verified.nothing")}</p>
        </>
      )}
      <p>
        <Link to="/account">{t("verified.toAccount")}</Link>
      </p>
    </section>
  );
}
