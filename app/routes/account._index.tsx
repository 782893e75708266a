// /account: the entry point of the account area. Who is signed in, what needs attention, and a link to every
// other account page (taken from ACCOUNT_NAV, so a new page appears here by itself).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { emailVerificationEnabled } from "~/auth/account/email-verification.server";
import { FlashMessage, VerifyEmailBanner } from "~/components/account-sections";
import { enabledProviders } from "~/auth/social/providers/registry.server";
import { accountNav } from "~/components/account-nav";
import { SubmitButton } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { mayReadLocalOutbox } from "~/email/mailer.server";
import { env } from "~/env.server";
import { accountAction } from "~/http/account-actions.server";
import { loadAccountPage } from "~/http/account-page.server";
import { useT } from "~/i18n/react";

export const meta = pageTitle("account.title");

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadAccountPage(request, context, ({ user }) => ({
    showVerifyBanner: !user.emailVerified && emailVerificationEnabled(),
    outbox: mayReadLocalOutbox(request, context.peerAddress),
    deleteAccount: env.AUTH_DELETE_ACCOUNT !== "off",
    providerNames: enabledProviders().map((p) => p.name),
  }));
}

export const action = (args: ActionFunctionArgs) => accountAction(args);

export default function AccountOverview() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const { user } = page;
  const { t, said } = useT();
  return (
    <>
      <section aria-labelledby="account-heading">
        <h1 id="account-heading">{t("account.title")}</h1>
        <FlashMessage flash={page.flash} />
        <p className="identity">
          <strong data-testid="account-name">
            <bdi>{user.name}</bdi>
          </strong>
          <br />
          <span data-testid="account-email" className="address" dir="ltr">
            {user.email}
          </span>
          {user.emailVerified ? <span className="muted">{t("account.verified")}</span> : null}
        </p>
      </section>
      {page.showVerifyBanner ? <VerifyEmailBanner email={user.email} last={last} outbox={page.outbox} /> : null}
      <section aria-labelledby="account-pages-heading">
        <h2 id="account-pages-heading">{t("account.manage")}</h2>
        <ul className="link-list">
          {accountNav(page.providerNames)
            .filter((entry) => !entry.end)
            .map((entry) => (
            <li key={entry.to}>
              <Link to={entry.to}>{said(entry.label)}</Link>
              {entry.description ? <span className="muted"> {said(entry.description)}</span> : null}
            </li>
          ))}
          {page.deleteAccount ? (
            <li>
              <Link to="/account/delete">{t("account.delete")}</Link>
              <span className="muted"> {t("account.deleteDescription")}</span>
            </li>
          ) : null}
        </ul>
      </section>
    </>
  );
}
