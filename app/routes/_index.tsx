// The home page: what Latchkey is, in words that claim only what is built, and the two ways in.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { StatusMessage } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { useT } from "~/i18n/react";
import { takeFlashContent } from "~/http/flash.server";
import { requestContext } from "~/http/page.server";
import { pageSession } from "~/http/page-session.server";

export const meta = pageTitle("home.title");

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requestContext(request, context, null);
  const session = await pageSession(ctx, context);
  const flash = takeFlashContent(request, ctx.responseHeaders);
  return data({ user: session ? { name: session.user.name, email: session.user.email } : null, flash: flash?.text || null, flashLink: flash?.link ?? null }, { headers: ctx.responseHeaders });
}

export default function Home() {
  const { user, flash, flashLink } = useLoaderData<typeof loader>();
  const { t, rich, said } = useT();
  return (
    <section className="hero">
      <h1>{t("home.title")}</h1>
      {flash ? (
        <StatusMessage>
          {said(flash)}
          {flashLink ? (
            <>
              {" "}
              <Link to={flashLink.href}>{said(flashLink.text)}</Link>
            </>
          ) : null}
        </StatusMessage>
      ) : null}
      <p className="lead">{t("home.lead")}</p>
      {user ? (
        <>
          <p>{rich("home.signedInAs", { name: user.name || user.email }, { bdi: (chunks) => <bdi key="name">{chunks}</bdi> })}</p>
          <div className="actions">
            <Link to="/account" className="button-link primary">
              {t("home.goToAccount")}
            </Link>
          </div>
        </>
      ) : (
        <div className="actions">
          <Link to="/sign-up" className="button-link primary">
            {t("home.createAccount")}
          </Link>
          <Link to="/sign-in" className="button-link secondary">
            {t("layout.signIn")}
          </Link>
        </div>
      )}
    </section>
  );
}
