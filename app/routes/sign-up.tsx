import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useMemo } from "react";
import { signUpWithEmail } from "~/auth/credentials.server";
import { safeRedirectTarget } from "~/auth/origin.server";
import { signUpFormSchema } from "~/auth/schemas";
import { ErrorList, Field, SubmitButton, useZodForm } from "~/components/forms";
import { passwordBounds } from "~/auth/password.server";
import { formAction, readForm, requestContext } from "~/http/page.server";

export const meta: MetaFunction = () => [{ title: "Sign up · Latchkey" }];

export async function loader(_: LoaderFunctionArgs) {
  return { passwordBounds: passwordBounds() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const submission = parseWithZod(await readForm(request), { schema: signUpFormSchema(passwordBounds()) });
  if (submission.status !== "success") {
    return data({ result: submission.reply({ hideFields: ["password"] }) }, { status: 400 });
  }
  const outcome = await formAction(
    (options) => submission.reply({ ...options, hideFields: ["password"] }),
    async () => {
      const ctx = await requestContext(request, context, "/sign-up/email");
      const { token } = await signUpWithEmail(ctx, submission.value);
      return { ctx, signedIn: token !== null };
    },
    (error) => (error.code === "USER_ALREADY_EXISTS" || error.code === "INVALID_EMAIL" ? "email" : error.code.startsWith("PASSWORD") ? "password" : undefined),
  );
  if (!outcome.ok) return data({ result: outcome.result }, outcome.init);
  const { ctx, signedIn } = outcome.value;
  // With required verification there is no session yet: say where the link went.
  if (!signedIn) throw redirect("/sign-in?verify=1", { headers: ctx.responseHeaders });
  throw redirect(safeRedirectTarget(submission.value.redirectTo), { headers: ctx.responseHeaders });
}

export default function SignUp() {
  const { passwordBounds } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo");
  const schema = useMemo(() => signUpFormSchema(passwordBounds), [passwordBounds]);
  const [form, fields] = useZodForm("sign-up", schema, actionData?.result);
  return (
    <Form method="post" className="card" {...getFormProps(form)}>
      <h1>Create an account</h1>
      <input type="hidden" name="redirectTo" value={redirectTo ?? ""} />
      <Field label="Name" meta={fields.name} type="text" autoComplete="name" />
      <Field label="Email" meta={fields.email} type="email" autoComplete="email" />
      <Field label="Password" meta={fields.password} type="password" autoComplete="new-password" />
      <ErrorList id={form.errorId} errors={form.errors} />
      <SubmitButton>Sign up</SubmitButton>
      <p className="muted">
        Already have an account? <Link to={`/sign-in${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`}>Sign in</Link>
      </p>
    </Form>
  );
}
