// /welcome: the step after a sign-in by e-mailed code that created the account (issue 27). Says that an account
// was made and asks for the name it does not have yet (the header's "Signed in as" and the organization pages use
// it); saving, or skipping, goes on to where the person was going. Without JavaScript it is one form post.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { updateUser } from "~/auth/account/users.server";
import { safeRedirectTarget } from "~/auth/origin.server";
import { welcomeSchema } from "~/auth/schemas";
import { ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { goTo, pageForm } from "~/http/page-action.server";
import { requirePageSession } from "~/http/page-session.server";
import { useT } from "~/i18n/react";

export const meta = pageTitle("welcome.pageTitle");

/** Where to go on: a same-site path (anything else, or nothing, is the account overview). */
const nextPath = (redirectTo: string | null | undefined) => {
  const url = new URL(safeRedirectTarget(redirectTo));
  return url.pathname + url.search + url.hash;
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [current, ctx] = await requirePageSession(request, context);
  const redirectTo = new URL(request.url).searchParams.get("redirectTo");
  // Only an account without a name is welcomed: anyone else opening this address goes straight on.
  if (current.user.name) throw redirect(nextPath(redirectTo), { headers: ctx.responseHeaders });
  return data({ email: current.user.email, name: current.user.name, redirectTo: redirectTo ?? "", next: nextPath(redirectTo) }, { headers: ctx.responseHeaders });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const outcome = await pageForm({ request, context }, {
    schema: welcomeSchema,
    rateLimitAs: "/update-user",
    session: "required",
    run: async (value, current, ctx) => {
      await updateUser(ctx, current, { name: value.name });
      return goTo(nextPath(value.redirectTo), `Thank you, ${value.name}. You can change your name on your Profile page.`);
    },
  });
  return data({ result: outcome.result }, outcome.init);
}

export default function Welcome() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const [form, fields] = useZodForm("welcome", welcomeSchema, last?.result, { name: page.name });
  const { t, rich } = useT();
  return (
    <Form method="post" className="card narrow" {...getFormProps(form)}>
      <h1>{t("welcome.heading")}</h1>
      <p>{rich("welcome.lead", { email: page.email }, { ltr: (chunks) => <span key="email" className="address" dir="ltr">{chunks}</span> })}</p>
      <ErrorSummary form={form} />
      <input type="hidden" name="redirectTo" value={page.redirectTo} />
      <Field label={t("welcome.name")} meta={fields.name} type="text" autoComplete="name" hint={t("welcome.nameHint")} autoFocus />
      <SubmitButton className="primary wide">{t("welcome.save")}</SubmitButton>
      <p className="muted">
        <Link to={page.next}>{t("welcome.skip")}</Link>
      </p>
    </Form>
  );
}
