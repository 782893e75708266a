import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useMemo } from "react";
import { signUpWithEmail } from "~/auth/credentials.server";
import { safeRedirectTarget } from "~/auth/origin.server";
import { signUpFormSchema } from "~/auth/schemas";
import { ErrorList, Field, SubmitButton, useZodForm } from "~/components/forms";
import { PasskeySignUp } from "~/components/passkey-sign-up";
import { passwordBounds } from "~/auth/password.server";
import { handleForm } from "~/http/page.server";

export const meta: MetaFunction = () => [{ title: "Sign up · Latchkey" }];

export async function loader(_: LoaderFunctionArgs) {
  return { passwordBounds: passwordBounds() };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const outcome = await handleForm({
    request,
    context,
    rateLimitAs: "/sign-up/email",
    schema: signUpFormSchema(passwordBounds()),
    hideFields: ["password"],
    fieldFor: (error) => (error.code === "USER_ALREADY_EXISTS" || error.code === "INVALID_EMAIL" ? "email" : error.code.startsWith("PASSWORD") ? "password" : undefined),
    run: async (value, ctx) => {
      const { token } = await signUpWithEmail(ctx, value);
      return { signedIn: token !== null, redirectTo: value.redirectTo };
    },
  });
  if (!outcome.ok) return data({ result: outcome.result }, outcome.init);
  const { ctx, value } = outcome;
  // With required verification there is no session yet: say where the link went.
  if (!value.signedIn) throw redirect("/sign-in?verify=1", { headers: ctx.responseHeaders });
  throw redirect(safeRedirectTarget(value.redirectTo), { headers: ctx.responseHeaders });
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
      <PasskeySignUp redirectTo={redirectTo} />
      <p className="muted">
        Already have an account? <Link to={`/sign-in${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`}>Sign in</Link>
      </p>
    </Form>
  );
}
