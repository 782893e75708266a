// /account/security: how you sign in. Each sign-in method is its own section; only methods that exist are shown.
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { hasPassword } from "~/auth/password-flows.server";
import { passwordBounds } from "~/auth/password.server";
import { ChangePasswordSection, FlashMessage, SetPasswordSection } from "~/components/account-sections";
import { pageTitle } from "~/components/page-title";
import { accountAction } from "~/http/account-actions.server";
import { loadAccountPage } from "~/http/account-page.server";

export const meta = pageTitle("Security");

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadAccountPage(request, context, async ({ user }) => ({
    hasPassword: await hasPassword(user.id),
    passwordBounds: passwordBounds(),
  }));
}

export const action = (args: ActionFunctionArgs) => accountAction(args);

export default function AccountSecurity() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  return (
    <>
      <h1 className="page-title">Security</h1>
      <FlashMessage flash={page.flash} />
      {page.hasPassword ? (
        <ChangePasswordSection key={`password-${page.flash?.id}`} bounds={page.passwordBounds} last={last} />
      ) : (
        <SetPasswordSection key={`password-${page.flash?.id}`} bounds={page.passwordBounds} last={last} />
      )}
    </>
  );
}
