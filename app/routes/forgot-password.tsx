import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData } from "@remix-run/react";
import { requestPasswordReset } from "~/auth/password-flows.server";
import { forgotPasswordSchema } from "~/auth/schemas";
import { ErrorList, Field, SubmitButton, useZodForm } from "~/components/forms";
import { handleForm } from "~/http/page.server";

export const meta: MetaFunction = () => [{ title: "Forgot password · Latchkey" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const outcome = await handleForm({
    request,
    context,
    rateLimitAs: "/request-password-reset",
    schema: forgotPasswordSchema,
    run: (value) => requestPasswordReset({ email: value.email }),
  });
  if (!outcome.ok) return data({ result: outcome.result, sent: false }, outcome.init);
  return { result: outcome.reply({ resetForm: true }), sent: true };
}

export default function ForgotPassword() {
  const actionData = useActionData<typeof action>();
  const [form, fields] = useZodForm("forgot-password", forgotPasswordSchema, actionData?.result);
  return (
    <Form method="post" className="card" {...getFormProps(form)}>
      <h1>Forgot your password?</h1>
      {actionData?.sent ? (
        <p className="notice" role="status">
          If an account uses that address, we have sent it a link to reset the password. Check your inbox.
        </p>
      ) : (
        <p className="muted">Enter the e-mail address of your account and we will send you a link to choose a new password.</p>
      )}
      <Field label="Email" meta={fields.email} type="email" autoComplete="email" />
      <ErrorList id={form.errorId} errors={form.errors} />
      <SubmitButton>Send reset link</SubmitButton>
      <p className="muted">
        <Link to="/sign-in">Back to sign in</Link>
      </p>
    </Form>
  );
}
