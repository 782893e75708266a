// "Sign in with SSO": a work email, then straight to the organization's identity provider (a 303), and back signed
// in. Works without JavaScript. A domain without a proven connection, and a refusal the IdP's return came back
// with (`?error=`), are shown in the page's error summary in words.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { z } from "zod";
import { AuthError } from "~/auth/errors";
import { resolveRedirectTarget, safeRedirectTarget } from "~/auth/origin.server";
import { emailField } from "~/auth/schemas";
import { startSsoSignIn } from "~/auth/sso/sign-in.server";
import { SSO_START_WORDS, ssoReturnProblem } from "~/auth/sso/words";
import { ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { pageForm } from "~/http/page-action.server";
import { useT } from "~/i18n/react";

const schema = z.object({ email: emailField, redirectTo: z.string().max(2048).optional() });

export const meta = pageTitle<{ problem: string | null }>("sso.title", (data) => data.problem !== null);

export function loader({ request }: LoaderFunctionArgs) {
  return data({ problem: ssoReturnProblem(new URL(request.url).searchParams.get("error")) });
}

/** This page again (keeping a same-site redirectTo), for the IdP's return to come back to with `?error=`. */
function thisPage(redirectTo: string | undefined): string {
  const keep = redirectTo && resolveRedirectTarget(redirectTo, { sameOrigin: true }) ? `?${new URLSearchParams({ redirectTo })}` : "";
  return `/sign-in/sso${keep}`;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const refused = await pageForm({ request, context }, {
    schema,
    rateLimitAs: "/sign-in/sso",
    session: "none",
    keepWhenLimited: ["email"],
    fieldFor: (error) => (SSO_START_WORDS[error.code] ? "email" : undefined),
    run: async (value, _current, ctx) => {
      try {
        const flow = await startSsoSignIn(ctx, {
          email: value.email,
          callbackURL: safeRedirectTarget(value.redirectTo),
          errorCallbackURL: thisPage(value.redirectTo),
        });
        // 303: the browser follows with a GET to the IdP, carrying the state cookie set with this answer.
        throw redirect(flow.url, { status: 303, headers: ctx.responseHeaders });
      } catch (error) {
        if (error instanceof Response) throw error;
        // The catalogue's message is for programs; the page says what to do.
        if (error instanceof AuthError && SSO_START_WORDS[error.code]) throw new AuthError(error.code as never, { message: SSO_START_WORDS[error.code] });
        throw error;
      }
    },
  });
  return data({ result: refused.result }, refused.init);
}

export default function SignInWithSso() {
  const { problem } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const [form, fields] = useZodForm("sso-sign-in", schema, actionData?.result);
  const keep = redirectTo ? `?${new URLSearchParams({ redirectTo })}` : "";
  const { t } = useT();
  return (
    <Form method="post" action={`/sign-in/sso${keep}`} className="card" {...getFormProps(form)}>
      <h1>{t("sso.title")}</h1>
      <p className="muted">{t("sso.lead")}</p>
      <ErrorSummary form={form} errors={actionData ? [] : [problem]} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Field label={t("sso.email")} meta={fields.email} type="email" autoComplete="email" />
      <SubmitButton className="primary wide">{t("sso.continue")}</SubmitButton>
      <p className="muted">
        <Link to={`/sign-in${keep}`}>{t("sso.otherWay")}</Link>
      </p>
    </Form>
  );
}
