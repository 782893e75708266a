// /account/security: how you sign in. Each sign-in method is its own section; only methods that exist are shown.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { hasPassword } from "~/auth/account/password-flows.server";
import { confirmItsYouUrl, recentlyVerified } from "~/auth/step-up/recently-verified.server";
import { passwordBounds } from "~/auth/account/password.server";
import { KeptWhileActing } from "~/components/kept-while-acting";
import { ChangePasswordSection, FlashMessage, Section, SetPasswordSection } from "~/components/account-sections";
import { ConfirmItsYou } from "~/components/confirm-its-you";
import { pageTitle } from "~/components/page-title";
import { accountAction } from "~/http/account-actions.server";
import { loadAccountPage } from "~/http/account-page.server";
import { useT } from "~/i18n/react";

const HERE = "/account/security";

export const meta = pageTitle("security.title");

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadAccountPage(request, context, async ({ user, session }) => ({
    hasPassword: await hasPassword(user.id),
    // Setting a password is a new way in: without a recent sign-in the page offers one instead (ADR 030).
    recentSignIn: recentlyVerified(session),
    confirmUrl: confirmItsYouUrl(HERE),
    passwordBounds: passwordBounds(),
  }));
}

export const action = (args: ActionFunctionArgs) => accountAction(args);

export default function AccountSecurity() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const { t } = useT();
  return (
    <>
      <h1 className="page-title">{t("security.title")}</h1>
      <FlashMessage flash={page.flash} />
      <KeptWhileActing kept="the password can't be changed">
        {page.hasPassword ? (
          <ChangePasswordSection key={`password-${page.flash?.id}`} bounds={page.passwordBounds} last={last} />
        ) : page.recentSignIn ? (
          <SetPasswordSection key={`password-${page.flash?.id}`} bounds={page.passwordBounds} last={last} />
        ) : (
          <Section id="set-password" title={t("security.setPassword")}>
            <ConfirmItsYou what="setting a password" href={page.confirmUrl} />
          </Section>
        )}
      </KeptWhileActing>
    </>
  );
}
