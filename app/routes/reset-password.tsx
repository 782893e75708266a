// Reached from the e-mailed link (via GET /api/auth/reset-password/{token}, which adds ?token= or ?error=).
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { isResetTokenUsable, resetPassword, resetTokenEmail } from "~/auth/account/password-flows.server";
import { passwordBounds } from "~/auth/account/password.server";
import { passwordLengthHint, resetPasswordFormSchema } from "~/auth/schemas";
import { ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { withErrorTitle } from "~/components/page-title";
import { goTo, pageForm } from "~/http/page-action.server";
import { claimNotice, linkRefusal } from "~/http/page-messages.server";
import { endedBy } from "~/auth/account/claim.server";
import { titleTranslator } from "~/components/page-title";
import { useT } from "~/i18n/react";

/** A link that cannot be used is a failure page: titled by its heading, after "Error: " (ADR 014). */
const UNUSABLE_TITLE = { refused: "reset.refusedTitle", unusable: "reset.unusableTitle" } as const;

export const meta = withErrorTitle(({ data, matches }) => {
  const page = data as { usable: boolean; refusal: string | null } | undefined;
  const t = titleTranslator(matches);
  if (page && !page.usable) return [{ title: `${t.t("common.errorPrefix")}${t.t(page.refusal ? UNUSABLE_TITLE.refused : UNUSABLE_TITLE.unusable)} · Latchkey` }];
  return [{ title: `${t.t("reset.pageTitle")} · Latchkey` }];
});

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("token") ?? "";
  // A link refused before its token was looked at (too many requests…) says so: the token may still be good.
  const refusal = linkRefusal(url.searchParams.get("error"));
  return { token, refusal, usable: token !== "" && (await isResetTokenUsable(token)), passwordBounds: passwordBounds() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const refused = await pageForm({ request, context }, {
    schema: resetPasswordFormSchema(passwordBounds()),
    rateLimitAs: "/reset-password",
    session: "none",
    hideFields: ["newPassword"],
    fieldFor: (error) => (error.code.startsWith("PASSWORD") ? "newPassword" : undefined),
    run: async (value, _current, ctx) => {
      const email = await resetTokenEmail(value.token);
      await resetPassword(ctx, value);
      // A reset that proved the inbox of a never-proven account also ended what was set up before (ADR 028).
      const ended = endedBy(ctx);
      const claim = ended ? claimNotice(ended, "new-password") : null;
      const text = claim ? `Your password was reset. ${claim.text} Sign in with the new password.` : "Your password was reset. Sign in with the new one.";
      return goTo("/sign-in?reset=1", text, email ? { email } : {});
    },
  });
  return data({ result: refused.result }, refused.init);
}

export default function ResetPassword() {
  const { token, refusal, usable, passwordBounds } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const schema = useMemo(() => resetPasswordFormSchema(passwordBounds), [passwordBounds]);
  const [form, fields] = useZodForm("reset-password", schema, actionData?.result);
  const { t, said } = useT();
  if (!usable) {
    return (
      <section className="narrow">
        <h1>{t(refusal ? UNUSABLE_TITLE.refused : UNUSABLE_TITLE.unusable)}</h1>
        <p>{refusal ? said(refusal) : t("reset.unusableText")}</p>
        <p>
          <Link to="/forgot-password" className="button-link">
            {t("reset.askNew")}
          </Link>
        </p>
      </section>
    );
  }
  return (
    <Form method="post" className="card narrow" {...getFormProps(form)}>
      <h1>{t("reset.pageTitle")}</h1>
      <ErrorSummary form={form} />
      <input type="hidden" name="token" value={token} />
      <Field label={t("reset.newPassword")} meta={fields.newPassword} type="password" autoComplete="new-password" hint={said(passwordLengthHint(passwordBounds))} />
      <SubmitButton className="primary wide">{t("reset.submit")}</SubmitButton>
    </Form>
  );
}
