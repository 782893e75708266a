// Where a followed account-deletion link lands: the account is gone, or (`?error=`, set by
// GET /api/auth/delete-user/callback for a browser) it is not, and why in words.
import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { withErrorTitle } from "~/components/page-title";
import { deleteLinkProblem } from "~/http/page-messages.server";
import { titleTranslator } from "~/components/page-title";
import { useT } from "~/i18n/react";

export const loader = ({ request }: LoaderFunctionArgs) => {
  const error = new URL(request.url).searchParams.get("error");
  return { problem: deleteLinkProblem(error), error };
};

export const meta = withErrorTitle(({ data, matches }) => {
  const t = titleTranslator(matches);
  const problem = (data as { problem?: string | null } | undefined)?.problem;
  return [{ title: problem ? `${t.t("common.errorPrefix")}${t.t("deleted.notDeletedTitle")} · Latchkey` : `${t.t("deleted.deletedTitle")} · Latchkey` }];
});

const WAY_ON: Record<string, { to: string; text: string }> = {
  unauthorized: { to: "/sign-in", text: "layout.signIn" },
  delete_user_is_disabled: { to: "/", text: "errors.home" },
};

export default function AccountDeleted() {
  const { problem, error } = useLoaderData<typeof loader>();
  const { t, said } = useT();
  if (problem) {
    const next = (error && Object.hasOwn(WAY_ON, error) && WAY_ON[error]) || { to: "/account/delete", text: "deleted.toDeletePage" };
    return (
      <section className="narrow">
        <h1>{t("deleted.notDeletedHeading")}</h1>
        <p>{said(problem)}</p>
        <p>
          <Link to={next.to}>{t(next.text)}</Link>
        </p>
      </section>
    );
  }
  return (
    <section>
      <h1>{t("deleted.heading")}</h1>
      <p>{t("deleted.text")}</p>
      <p>
        <Link to="/">{t("errors.home")}</Link>
      </p>
    </section>
  );
}
