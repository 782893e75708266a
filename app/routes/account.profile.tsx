// /account/profile: name and picture, and the email address.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { KeptWhileActing } from "~/components/kept-while-acting";
import { ChangeEmailSection, FlashMessage, ProfileSection } from "~/components/account-sections";
import { pageTitle } from "~/components/page-title";
import { pendingEmailChange } from "~/auth/account/change-email.server";
import { env } from "~/env.server";
import { accountAction } from "~/http/account-actions.server";
import { loadAccountPage } from "~/http/account-page.server";
import { useT } from "~/i18n/react";

export const meta = pageTitle("profile.title");

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadAccountPage(request, context, async (current) => ({
    changeEmail: env.AUTH_CHANGE_EMAIL === "on",
    pendingEmail: env.AUTH_CHANGE_EMAIL === "on" ? await pendingEmailChange(current) : null,
  }));
}

export const action = (args: ActionFunctionArgs) => accountAction(args);

export default function AccountProfile() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const { user } = page;
  const { t } = useT();
  return (
    <>
      <h1 className="page-title">{t("profile.title")}</h1>
      <FlashMessage flash={page.flash} />
      <KeptWhileActing kept="the profile and email address can't be changed">
        <ProfileSection key={`profile-${page.flash?.id}`} name={user.name} image={user.image} username={user.username} last={last} />
        {page.changeEmail ? <ChangeEmailSection key={`email-${page.flash?.id}`} email={user.email} pending={page.pendingEmail} last={last} /> : null}
      </KeptWhileActing>
    </>
  );
}
