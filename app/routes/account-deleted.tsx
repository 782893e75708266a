// Where a followed account-deletion link lands: the account is gone, or (`?error=`, set by
// GET /api/auth/delete-user/callback for a browser) it is not, and why in words.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ERROR_TITLE_PREFIX } from "~/components/forms";
import { withErrorTitle } from "~/components/page-title";
import { deleteLinkProblem } from "~/http/page-messages.server";

export const loader = ({ request }: LoaderFunctionArgs) => {
  const error = new URL(request.url).searchParams.get("error");
  return { problem: deleteLinkProblem(error), error };
};

export const meta = withErrorTitle(({ data }) => [
  { title: (data as { problem?: string | null } | undefined)?.problem ? `${ERROR_TITLE_PREFIX}Account not deleted · Latchkey` : "Account deleted · Latchkey" },
]);

const WAY_ON: Record<string, { to: string; text: string }> = {
  unauthorized: { to: "/sign-in", text: "Sign in" },
  delete_user_is_disabled: { to: "/", text: "Return to the home page" },
};

export default function AccountDeleted() {
  const { problem, error } = useLoaderData<typeof loader>();
  if (problem) {
    const next = (error && Object.hasOwn(WAY_ON, error) && WAY_ON[error]) || { to: "/account/delete", text: "Go to the Delete account page" };
    return (
      <section className="narrow">
        <h1>Your account was not deleted</h1>
        <p>{problem}</p>
        <p>
          <Link to={next.to}>{next.text}</Link>
        </p>
      </section>
    );
  }
  return (
    <section>
      <h1>Your account is deleted</h1>
      <p>Your account, its sessions and its sign-in methods are gone.</p>
      <p>
        <Link to="/">Return to the home page</Link>
      </p>
    </section>
  );
}
