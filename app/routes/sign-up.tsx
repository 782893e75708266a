import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { useMemo } from "react";
import { signUpFromInvitationLink } from "~/auth/organization/invitations.server";
import { emailVerificationEnabled } from "~/auth/account/email-verification.server";
import { safeRedirectTarget } from "~/auth/origin.server";
import { passwordLengthHint, signUpFormSchema } from "~/auth/schemas";
import { USERNAME_HINT } from "~/auth/username/schemas";
import { ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { PasskeySignUp } from "~/components/passkey-sign-up";
import { pageTitle } from "~/components/page-title";
import { passwordBounds } from "~/auth/account/password.server";
import { PAGE_MESSAGES, socialSignInOptions } from "~/http/page-messages.server";
import { goTo, pageForm } from "~/http/page-action.server";
import { SocialButtons } from "~/components/social-buttons";
import { redirectIfSignedIn } from "~/http/signed-in.server";
import { proofOfWorkForAddress, watchProofRefusal } from "~/http/proof-of-work-page.server";
import { ProofOfWorkCheck } from "~/components/proof-of-work";
import { useT } from "~/i18n/react";

// A provider's refusal (`?error=`) arrives with the page, in its error summary.
export const meta = pageTitle<{ social: { error: string | null } }>("signUp.pageTitle", (data) => data.social.error !== null);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const headers = await redirectIfSignedIn(request, context);
  return data(
    {
      passwordBounds: passwordBounds(),
      userExists: PAGE_MESSAGES.USER_ALREADY_EXISTS(),
      social: socialSignInOptions(request),
      proofOfWork: await proofOfWorkForAddress(context.clientIp ?? "unknown"),
    },
    { headers },
  );
}

export async function action({ request, context }: ActionFunctionArgs) {
  const proof = watchProofRefusal();
  const refused = await pageForm({ request, context }, {
    schema: signUpFormSchema(passwordBounds()),
    rateLimitAs: "/sign-up/email",
    session: "none",
    hideFields: ["password"],
    fieldFor: (error) =>
      error.code === "USER_ALREADY_EXISTS" || error.code === "INVALID_EMAIL"
        ? "email"
        : error.code.startsWith("PASSWORD")
          ? "password"
          : error.code.startsWith("USERNAME")
            ? "username"
            : undefined,
    run: async (value, _current, ctx) => {
      // The page a sign-up returns to may be an invitation's link, whose secret proves the inbox.
      const { token, user } = await proof.run(() => signUpFromInvitationLink(ctx, value, value.redirectTo));
      // With required verification there is no session yet: say where the link went, and wait on the sign-in page.
      if (token === null) {
        return goTo("/sign-in?verify=1", `Account created. We sent a verification link to ${user.email}: follow it, then sign in.`, { email: user.email });
      }
      const welcome = emailVerificationEnabled() ? `Welcome, ${user.name}. We sent a verification link to ${user.email}.` : undefined;
      return goTo(safeRedirectTarget(value.redirectTo), welcome);
    },
  });
  return data({ result: refused.result, proofOfWork: proof.need() }, refused.init);
}

export default function SignUp() {
  const page = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo");
  const schema = useMemo(() => signUpFormSchema(page.passwordBounds), [page.passwordBounds]);
  // ?email= fills in the address (an invitation's "Create an account to accept").
  const [form, fields] = useZodForm("sign-up", schema, actionData?.result, { email: searchParams.get("email") ?? undefined });
  const proofOfWork = actionData?.proofOfWork ?? page.proofOfWork;
  const withRedirect = (path: string) => `${path}${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`;
  const { t, rich, said } = useT();
  return (
    <>
    <Form method="post" className="card narrow" {...getFormProps(form)}>
      <h1>{t("signUp.heading")}</h1>
      <ErrorSummary form={form} errors={actionData ? [] : [page.social.error]} />
      <input type="hidden" name="redirectTo" value={redirectTo ?? ""} />
      <Field label={t("signUp.name")} meta={fields.name} type="text" autoComplete="name" />
      <Field label={t("signUp.email")} meta={fields.email} type="email" autoComplete="email" />
      {fields.email.errors?.includes(page.userExists) ? (
        <p className="way-on" data-testid="user-exists-links">
          {rich(
            "signUp.userExistsLinks",
            {},
            {
              signin: (chunks) => <Link key="sign-in" to={withRedirect("/sign-in")}>{chunks}</Link>,
              reset: (chunks) => <Link key="reset" to="/forgot-password">{chunks}</Link>,
            },
          )}
        </p>
      ) : null}
      <Field label={t("signUp.username")} meta={fields.username} type="text" autoComplete="username" hint={said(USERNAME_HINT)} />
      <Field label={t("signUp.password")} meta={fields.password} type="password" autoComplete="new-password" hint={said(passwordLengthHint(page.passwordBounds))} />
      {proofOfWork ? <ProofOfWorkCheck need={proofOfWork} attempt={actionData} otherWays={<>{t("proofOfWork.signUpLater")}</>} /> : null}
      <SubmitButton className="primary wide">{t("signUp.submit")}</SubmitButton>
      <PasskeySignUp redirectTo={redirectTo} />
      <p className="muted">
        {rich("signUp.haveAccount", {}, { link: (chunks) => <Link key="sign-in" to={withRedirect("/sign-in")}>{chunks}</Link> })}
      </p>
    </Form>
    <SocialButtons providers={page.social.providers} redirectTo={redirectTo} />
    </>
  );
}
