import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { requestPasswordReset } from "~/auth/account/password-flows.server";
import { forgotPasswordSchema } from "~/auth/schemas";
import { DevOutboxLink } from "~/components/dev-outbox-link";
import { ErrorSummary, Field, StatusMessage, SubmitButton, useZodForm } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { mayReadLocalOutbox } from "~/email/mailer.server";
import { pageForm } from "~/http/page-action.server";

export const meta = pageTitle("Forgot password");

export async function loader({ request, context }: LoaderFunctionArgs) {
  return { outbox: mayReadLocalOutbox(request, context.peerAddress) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const outcome = await pageForm({ request, context }, {
    schema: forgotPasswordSchema,
    rateLimitAs: "/request-password-reset",
    session: "none",
    run: async (value) => {
      await requestPasswordReset({ email: value.email });
      return value.email.toLowerCase();
    },
  });
  if (!outcome.ok) return data({ result: outcome.result, sentTo: null }, outcome.init);
  return { result: outcome.reply({ resetForm: true }), sentTo: outcome.value };
}

export default function ForgotPassword() {
  const { outbox } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useZodForm("forgot-password", forgotPasswordSchema, actionData?.result);
  return (
    <Form method="post" className="card narrow" {...getFormProps(form)}>
      <h1>Forgot your password?</h1>
      {actionData?.sentTo ? (
        <StatusMessage focusKey={actionData}>
          If an account uses <span className="address">{actionData.sentTo}</span>, we have sent it a link to choose a new password. Check your
          inbox.
          <DevOutboxLink show={outbox} />
        </StatusMessage>
      ) : (
        <p className="muted">Enter the email address of your account and we will send you a link to choose a new password.</p>
      )}
      <ErrorSummary form={form} />
      <Field label="Email" meta={fields.email} type="email" autoComplete="email" />
      <SubmitButton className="primary wide">Send reset link</SubmitButton>
      <p className="muted">
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </Form>
  );
}
