// /account/delete: deleting the account, a page of its own with a confirmation step (typing the address).
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { hasPassword } from "~/auth/account/password-flows.server";
import { DeleteAccountSection, FlashMessage } from "~/components/account-sections";
import { pageTitle } from "~/components/page-title";
import { env } from "~/env.server";
import { accountAction } from "~/http/account-actions.server";
import { loadAccountPage } from "~/http/account-page.server";

export const meta = pageTitle("Delete account");

export async function loader({ request, context }: LoaderFunctionArgs) {
  if (env.AUTH_DELETE_ACCOUNT === "off") throw new Response("Not found", { status: 404 });
  return loadAccountPage(request, context, async ({ user }) => ({
    hasPassword: await hasPassword(user.id),
    mode: env.AUTH_DELETE_ACCOUNT === "email" ? ("email" as const) : ("on" as const),
  }));
}

export const action = (args: ActionFunctionArgs) => accountAction(args);

export default function AccountDelete() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  return (
    <>
      <h1 className="page-title">Delete account</h1>
      <FlashMessage flash={page.flash} />
      <DeleteAccountSection key={page.flash?.id} mode={page.mode} hasPassword={page.hasPassword} email={page.user.email} last={last} />
      <p>
        <Link to="/account">Keep my account</Link>
      </p>
    </>
  );
}
