// Where a sign-in with two-factor on lands: a code from the authenticator app, or a backup code, or a code
// sent by e-mail where the sign-in's first factor left that open (ADR 027: the page offers exactly the attempt's
// methods). Works without JavaScript: each way is its own form, chosen by `?method=`. A refusal that ends
// the sign-in (the fifth wrong code, or one that took too long) goes back to the password step, which says why.
// A new browser's check (AUTH_NEW_DEVICE_VERIFICATION, ADR 058) shows only the e-mailed-code form, as "Confirm it's you".
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthError } from "~/auth/errors";
import { safeRedirectTarget } from "~/auth/origin.server";
import { attemptIsOpen, hasAttemptCookie, openAttemptKind } from "~/auth/two-factor/attempt.server";
import { TWO_FACTOR_OTP_SECONDS } from "~/auth/two-factor/constants";
import { secondFactorFormSchema, sendOtpFormSchema } from "~/auth/two-factor/schemas";
import { sendTwoFactorOtp, verifyBackupCode, verifyTotp, verifyTwoFactorOtp } from "~/auth/two-factor/verify.server";
import type { RequestContext } from "~/auth/request-context.server";
import { CheckboxField, ErrorSummary, Field, StatusMessage, SubmitButton, useZodForm } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { PAGE_MESSAGES, twoFactorCodeWords } from "~/http/page-messages.server";
import { goTo, pageForm } from "~/http/page-action.server";
import { useT } from "~/i18n/react";

export const meta = pageTitle("twoFactor.pageTitle");

type Method = "totp" | "backup" | "otp";
const methodOf = (url: URL, otpOpen = true): Method => {
  const method = url.searchParams.get("method");
  return method === "backup" || (method === "otp" && otpOpen) ? method : "totp";
};

export async function loader({ request }: LoaderFunctionArgs) {
  const url = new URL(request.url);
  // Without a pending sign-in there is nothing to finish here.
  if (!hasAttemptCookie(request)) throw redirect("/sign-in");
  // An attempt that has ended offers the app and backup codes; their form then says it is over.
  const attempt = await openAttemptKind(request);
  const otpOpen = (attempt?.methods ?? []).includes("otp");
  // A new browser's check (ADR 058) has one way: the code mailed when the password was entered.
  const newDevice = attempt?.newDeviceVerification === true;
  const method = newDevice ? "otp" : methodOf(url, otpOpen);
  return { method, otpOpen, newDevice, redirectTo: url.searchParams.get("redirectTo") ?? "", sent: url.searchParams.get("sent") === "1" };
}

/** Words for people; the JSON API keeps the specification's messages. */
function forPeople(error: unknown): never {
  if (error instanceof AuthError && error.code === "INVALID_TWO_FACTOR_AUTHENTICATION") {
    throw new AuthError(error.code, { message: twoFactorCodeWords(error.reason) });
  }
  throw error;
}

/** Runs a step of the sign-in; when a refusal has ended it, says so instead of offering a form that cannot work. */
async function whileOpen(ctx: RequestContext, step: () => Promise<unknown>): Promise<"done" | "over"> {
  try {
    await step();
    return "done";
  } catch (error) {
    const refused = error instanceof AuthError && (error.code === "INVALID_TWO_FACTOR_AUTHENTICATION" || error.code === "INVALID_TWO_FACTOR_COOKIE");
    if (refused && !(await attemptIsOpen(ctx))) return "over";
    return forPeople(error);
  }
}

/** Back to the password step, with why as an error there (and the page it was going to). */
function signInAgain(redirectTo: string | undefined) {
  return goTo(`/sign-in${redirectTo ? `?redirectTo=${encodeURIComponent(redirectTo)}` : ""}`, PAGE_MESSAGES.INVALID_TWO_FACTOR_COOKIE(), { tone: "error" });
}

const VERIFY = { totp: verifyTotp, backup: verifyBackupCode, otp: verifyTwoFactorOtp } as const;

export async function action({ request, context }: ActionFunctionArgs) {
  const url = new URL(request.url);
  if (url.searchParams.get("send") === "1") {
    const refused = await pageForm({ request, context }, {
      schema: sendOtpFormSchema,
      rateLimitAs: "/two-factor/send-otp",
      session: "none",
      run: async (value, _current, ctx) => {
        const redirectTo = value.redirectTo ?? "";
        if ((await whileOpen(ctx, () => sendTwoFactorOtp(ctx))) === "over") return signInAgain(redirectTo);
        return goTo(`/two-factor?${new URLSearchParams({ method: "otp", sent: "1", redirectTo })}`);
      },
    });
    return data({ result: refused.result }, refused.init);
  }
  const method = methodOf(url);
  const refused = await pageForm({ request, context }, {
    schema: secondFactorFormSchema,
    rateLimitAs: `/two-factor/verify-${method === "backup" ? "backup-code" : method}`,
    session: "none",
    fieldFor: (error) => (error.code === "INVALID_TWO_FACTOR_AUTHENTICATION" ? "code" : undefined),
    run: async (value, _current, ctx) => {
      const state = await whileOpen(ctx, () => VERIFY[method](ctx, { code: value.code, trustDevice: value.trustDevice === true }));
      if (state === "over") return signInAgain(value.redirectTo);
      return goTo(safeRedirectTarget(value.redirectTo));
    },
  });
  return data({ result: refused.result }, refused.init);
}

const TITLES: Record<Method, { intro: string; label: string }> = {
  totp: { intro: "twoFactor.introTotp", label: "twoFactor.code" },
  backup: { intro: "twoFactor.introBackup", label: "twoFactor.backupCode" },
  otp: { intro: "twoFactor.introOtp", label: "twoFactor.code" },
};

export default function TwoFactor() {
  const { method, otpOpen, newDevice, redirectTo, sent } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const [form, fields] = useZodForm(`two-factor-${method}`, secondFactorFormSchema, actionData?.result);
  const keep = redirectTo ? `&redirectTo=${encodeURIComponent(redirectTo)}` : "";
  const { t } = useT();
  const minutes = TWO_FACTOR_OTP_SECONDS / 60;
  return (
    <div className="card narrow">
      <h1>{newDevice ? t("twoFactor.confirmItsYou") : t("twoFactor.pageTitle")}</h1>
      {newDevice && !actionData ? (
        <StatusMessage>{t("twoFactor.newDevice", { minutes })}</StatusMessage>
      ) : sent && method === "otp" && !actionData ? (
        <StatusMessage>{t("twoFactor.sent", { minutes })}</StatusMessage>
      ) : null}
      <p className="muted">{t(TITLES[method].intro)}</p>
      <Form method="post" action={`/two-factor?method=${method}${keep}`} {...getFormProps(form)}>
        <ErrorSummary form={form} />
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <Field label={t(TITLES[method].label)} meta={fields.code} type="text" autoComplete="one-time-code" inputMode={method === "backup" ? undefined : "numeric"} />
        {newDevice ? null : <CheckboxField label={t("twoFactor.trust")} meta={fields.trustDevice} />}
        <SubmitButton>{t("twoFactor.verify")}</SubmitButton>
      </Form>
      <h2>{t("twoFactor.otherWays")}</h2>
      <ul className="plain">
        {method !== "totp" && !newDevice ? (
          <li>
            <Link to={`/two-factor?method=totp${keep}`}>{t("twoFactor.useApp")}</Link>
          </li>
        ) : null}
        {method !== "backup" && !newDevice ? (
          <li>
            <Link to={`/two-factor?method=backup${keep}`}>{t("twoFactor.useBackup")}</Link>
          </li>
        ) : null}
        {otpOpen ? (
          <li>
            <Form method="post" action={`/two-factor?send=1${keep}`} className="inline">
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <SubmitButton className="secondary">{method === "otp" ? t("twoFactor.emailNew") : t("twoFactor.email")}</SubmitButton>
            </Form>
          </li>
        ) : null}
      </ul>
      <p className="muted">
        <Link to="/sign-in">{t("twoFactor.startOver")}</Link>
      </p>
    </div>
  );
}
