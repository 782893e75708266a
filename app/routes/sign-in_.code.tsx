// "Email me a sign-in code": the address first, then the 6-digit code from the mail. Without JavaScript the
// first form's answer renders the second. Every refusal of the code keeps the address (a hidden field), so the
// next try, or "Send a new code", works without starting over.
import { getFormProps, type SubmissionResult } from "@conform-to/react";
import type { ActionFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useSearchParams } from "@remix-run/react";
import { EMAIL_OTP_SECONDS } from "~/auth/email-otp/constants";
import { accountCreatedBy, sendVerificationOtp, signInWithEmailOtp } from "~/auth/email-otp/flows.server";
import { otpCodeFormSchema, otpEmailFormSchema } from "~/auth/email-otp/schemas";
import { safeRedirectTarget } from "~/auth/origin.server";
import { twoFactorPage } from "~/auth/username/identifier.server";
import { ErrorSummary, Field, StatusMessage, SubmitButton, useZodForm } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { goTo, pageForm } from "~/http/page-action.server";
import { claimNotice } from "~/http/page-messages.server";
import { endedBy } from "~/auth/account/claim.server";
import { useT } from "~/i18n/react";

export const meta = pageTitle("code.pageTitle");

/** The address a refused form carried (parsed or, when rate-limited, kept unparsed), for the next try. */
const submittedEmail = (result: SubmissionResult<string[]>): string | null => {
  const email = result.initialValue?.email;
  return typeof email === "string" && email ? email : null;
};

export async function action({ request, context }: ActionFunctionArgs) {
  if (new URL(request.url).searchParams.get("step") === "code") {
    const refused = await pageForm({ request, context }, {
      schema: otpCodeFormSchema,
      rateLimitAs: "/sign-in/email-otp",
      session: "none",
      keepWhenLimited: ["email"],
      fieldFor: (error) => (["INVALID_OTP", "OTP_EXPIRED", "TOO_MANY_ATTEMPTS"].includes(error.code) ? "otp" : undefined),
      run: async (value, _current, ctx) => {
        const answer = await signInWithEmailOtp(ctx, { email: value.email, otp: value.otp });
        // A new address made a new account, with no name yet: the welcome step says so and asks for one.
        if (accountCreatedBy(ctx) && !("twoFactorRedirect" in answer)) {
          return goTo(`/welcome${value.redirectTo ? `?${new URLSearchParams({ redirectTo: value.redirectTo })}` : ""}`);
        }
        // The code claimed a never-proven account (ADR 028): the next page says what ended and offers a password.
        const ended = endedBy(ctx);
        const claim = ended ? claimNotice(ended, "signed-in") : null;
        const next = safeRedirectTarget("twoFactorRedirect" in answer ? twoFactorPage(value.redirectTo) : value.redirectTo);
        return goTo(next, claim?.text, claim?.link ? { link: claim.link } : {});
      },
    });
    return data({ step: "code" as const, email: submittedEmail(refused.result), sent: false, result: refused.result }, refused.init);
  }
  const outcome = await pageForm({ request, context }, {
    schema: otpEmailFormSchema,
    rateLimitAs: "/email-otp/send-verification-otp",
    session: "none",
    keepWhenLimited: ["email"],
    run: async (value) => {
      await sendVerificationOtp({ email: value.email, type: "sign-in" });
      return value.email.toLowerCase();
    },
  });
  if (!outcome.ok) return data({ step: "email" as const, email: submittedEmail(outcome.result), sent: false, result: outcome.result }, outcome.init);
  // A reset for the code form: with JavaScript on, "Send a new code" re-renders the same form, which would otherwise
  // keep (and focus, and title the page with) the refusal of the previous code.
  return { step: "code" as const, email: outcome.value, sent: true, result: outcome.reply({ resetForm: true }) };
}

export default function SignInWithCode() {
  const actionData = useActionData<typeof action>();
  const [searchParams] = useSearchParams();
  const redirectTo = searchParams.get("redirectTo") ?? "";
  const onCodeStep = actionData?.step === "code";
  const [emailForm, emailFields] = useZodForm("otp-email", otpEmailFormSchema, onCodeStep ? undefined : actionData?.result);
  const [codeForm, codeFields] = useZodForm("otp-code", otpCodeFormSchema, onCodeStep ? actionData?.result : undefined, {
    email: actionData?.email ?? undefined,
  });
  const keep = redirectTo ? `&redirectTo=${encodeURIComponent(redirectTo)}` : "";
  const { t, rich } = useT();
  if (onCodeStep) {
    const email = actionData?.email ?? "";
    return (
      <section>
        <h1>{t("code.enterHeading")}</h1>
        {actionData?.sent ? (
          <StatusMessage focusKey={actionData}>
            {rich("code.sent", { email, minutes: EMAIL_OTP_SECONDS / 60 }, { ltr: (chunks) => <span key="email" className="address" dir="ltr">{chunks}</span> })}
          </StatusMessage>
        ) : email ? (
          // After a refused code the page still says which address the code went to.
          <p className="muted">{rich("code.sentTo", { email }, { ltr: (chunks) => <span key="email" className="address" dir="ltr">{chunks}</span> })}</p>
        ) : null}
        <Form method="post" action={`/sign-in/code?step=code${keep}`} {...getFormProps(codeForm)}>
          <ErrorSummary form={codeForm} />
          <input type="hidden" name="redirectTo" value={redirectTo} />
          <input type="hidden" name={codeFields.email.name} value={email} />
          <Field label={t("code.code")} meta={codeFields.otp} type="text" autoComplete="one-time-code" inputMode="numeric" />
          <SubmitButton>{t("code.submit")}</SubmitButton>
        </Form>
        {email ? (
          // The same address again, without retyping it: a refused or used-up code is never a dead end.
          <Form method="post" action={`/sign-in/code?step=email${keep}`}>
            <input type="hidden" name="redirectTo" value={redirectTo} />
            <input type="hidden" name="email" value={email} />
            <SubmitButton className="link-button">{t("code.resend")}</SubmitButton>
          </Form>
        ) : null}
        <p className="muted">
          <Link to={`/sign-in/code${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`}>{t("code.otherAddress")}</Link>
        </p>
      </section>
    );
  }
  return (
    <Form method="post" action={`/sign-in/code?step=email${keep}`} className="card" {...getFormProps(emailForm)}>
      <h1>{t("code.pageTitle")}</h1>
      <p className="muted">{t("code.lead")}</p>
      <ErrorSummary form={emailForm} />
      <input type="hidden" name="redirectTo" value={redirectTo} />
      <Field label={t("code.email")} meta={emailFields.email} type="email" autoComplete="email" />
      <SubmitButton>{t("code.send")}</SubmitButton>
      <p className="muted">
        <Link to="/sign-in">{t("code.withPassword")}</Link>
      </p>
    </Form>
  );
}
