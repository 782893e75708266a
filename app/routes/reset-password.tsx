// Reached from the e-mailed link (via GET /api/auth/reset-password/{token}, which adds ?token= or ?error=).
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useMemo } from "react";
import { isResetTokenUsable, resetPassword } from "~/auth/password-flows.server";
import { passwordBounds } from "~/auth/password.server";
import { resetPasswordFormSchema } from "~/auth/schemas";
import { ErrorList, Field, SubmitButton, useZodForm } from "~/components/forms";
import { handleForm } from "~/http/page.server";

export const meta: MetaFunction = () => [{ title: "Choose a new password · Latchkey" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const token = new URL(request.url).searchParams.get("token") ?? "";
  return { token, usable: token !== "" && (await isResetTokenUsable(token)), passwordBounds: passwordBounds() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const outcome = await handleForm({
    request,
    context,
    rateLimitAs: "/reset-password",
    schema: resetPasswordFormSchema(passwordBounds()),
    hideFields: ["newPassword"],
    fieldFor: (error) => (error.code.startsWith("PASSWORD") ? "newPassword" : undefined),
    run: (value) => resetPassword(value),
  });
  if (!outcome.ok) return data({ result: outcome.result }, outcome.init);
  throw redirect("/sign-in?reset=1");
}

export default function ResetPassword() {
  const { token, usable, passwordBounds } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const schema = useMemo(() => resetPasswordFormSchema(passwordBounds), [passwordBounds]);
  const [form, fields] = useZodForm("reset-password", schema, actionData?.result);
  if (!usable) {
    return (
      <section>
        <h1>This link cannot be used</h1>
        <p>The password reset link is invalid, has expired, or was already used.</p>
        <p>
          <Link to="/forgot-password">Ask for a new link</Link>
        </p>
      </section>
    );
  }
  return (
    <Form method="post" className="card" {...getFormProps(form)}>
      <h1>Choose a new password</h1>
      <input type="hidden" name="token" value={token} />
      <Field label="New password" meta={fields.newPassword} type="password" autoComplete="new-password" />
      <ErrorList id={form.errorId} errors={form.errors} />
      <SubmitButton>Reset password</SubmitButton>
    </Form>
  );
}
