// /account/delete: deleting the account, a page of its own with a confirmation step (typing the address).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { hasPassword } from "~/auth/account/password-flows.server";
import { confirmItsYouUrl, recentlyVerified } from "~/auth/step-up/recently-verified.server";
import { KeptWhileActing } from "~/components/kept-while-acting";
import { DeleteAccountSection, FlashMessage } from "~/components/account-sections";
import { ConfirmItsYou } from "~/components/confirm-its-you";
import { pageTitle } from "~/components/page-title";
import { env } from "~/env.server";
import { accountAction } from "~/http/account-actions.server";
import { loadAccountPage } from "~/http/account-page.server";
import { useT } from "~/i18n/react";

export const meta = pageTitle("deleteAccount.title");

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (env.AUTH_DELETE_ACCOUNT === "off") throw new Response("Not found", { status: 404 });
  return loadAccountPage(request, context, async ({ user, session }) => {
    const withPassword = await hasPassword(user.id);
    return {
      hasPassword: withPassword,
      mode: env.AUTH_DELETE_ACCOUNT === "email" ? ("email" as const) : ("on" as const),
      // Without a password to type (or with two-factor on, where a password is one factor of two) the session
      // itself must be recently verified (ADR 059): say so up front, with the way to confirm it.
      mustConfirmFirst: (!withPassword || user.twoFactorEnabled) && !recentlyVerified(session),
      confirmUrl: confirmItsYouUrl("/account/delete"),
    };
  });
}

export const action = (args: ActionFunctionArgs) => accountAction(args);

export default function AccountDelete() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const { t } = useT();
  return (
    <>
      <h1 className="page-title">{t("deleteAccount.title")}</h1>
      <FlashMessage flash={page.flash} />
      <KeptWhileActing kept="the account can't be deleted">
        {page.mustConfirmFirst ? (
          <ConfirmItsYou what="deleting your account" href={page.confirmUrl} />
        ) : (
          <DeleteAccountSection key={page.flash?.id} mode={page.mode} hasPassword={page.hasPassword} email={page.user.email} last={last} />
        )}
      </KeptWhileActing>
      <p>
        <Link to="/account">{t("deleteAccount.keep")}</Link>
      </p>
    </>
  );
}
