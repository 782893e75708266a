import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, MetaFunction } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { signInWithEmail } from "~/auth/credentials.server";
import { ERRORS } from "~/auth/errors";
import { safeRedirectTarget } from "~/auth/origin.server";
import { signInFormSchema } from "~/auth/schemas";
import { CheckboxField, ErrorList, Field, SubmitButton, useZodForm } from "~/components/forms";
import { PasskeySignIn } from "~/components/passkey-sign-in";
import { handleForm } from "~/http/page.server";

export const meta: MetaFunction = () => [{ title: "Sign in · Latchkey" }];

export async function action({ request, context }: ActionFunctionArgs) {
  const outcome = await handleForm({
    request,
    context,
    rateLimitAs: "/sign-in/email",
    schema: signInFormSchema,
    hideFields: ["password"],
    run: async (value, ctx) => {
      await signInWithEmail(ctx, { ...value, rememberMe: value.rememberMe === true });
      return value.redirectTo;
    },
  });
  if (!outcome.ok) return data({ result: outcome.result }, outcome.init);
  throw redirect(safeRedirectTarget(outcome.value), { headers: outcome.ctx.responseHeaders });
}

export default function SignIn() {
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const [form, fields] = useZodForm("sign-in", signInFormSchema, actionData?.result, { rememberMe: "on" });
  return (
    <Form method="post" className="card" {...getFormProps(form)}>
      <h1>Sign in</h1>
      {searchParams.get("verify") === "1" ? (
        <p className="notice" role="status">
          Account created. We sent a verification link to your inbox: follow it, then sign in.
        </p>
      ) : null}
      {searchParams.get("reset") === "1" ? (
        <p className="notice" role="status">
          Your password was reset. Sign in with the new one.
        </p>
      ) : null}
      <input type="hidden" name="redirectTo" value={searchParams.get("redirectTo") ?? ""} />
      <Field label="Email" meta={fields.email} type="email" autoComplete="username webauthn" />
      <Field label="Password" meta={fields.password} type="password" autoComplete="current-password" />
      <CheckboxField label="Remember me" meta={fields.rememberMe} />
      <ErrorList id={form.errorId} errors={form.errors} />
      {form.errors?.includes(ERRORS.EMAIL_NOT_VERIFIED[1]) ? (
        <p className="notice" role="status">
          We sent a new verification link to your inbox. Follow it, then sign in.
        </p>
      ) : null}
      <SubmitButton>Sign in</SubmitButton>
      <PasskeySignIn redirectTo={searchParams.get("redirectTo")} />
      <p className="muted">
        <Link to="/forgot-password">Forgot password?</Link>
      </p>
      <p className="muted">
        New here? <Link to={`/sign-up${searchParams.get("redirectTo") ? `?redirectTo=${encodeURIComponent(searchParams.get("redirectTo")!)}` : ""}`}>Create an account</Link>
      </p>
    </Form>
  );
}
