// /reverify?redirectTo=<same-site path>: "Confirm it's you" (issue 39 §4, docs/decisions/059-step-up-confirm-its-
// you.md). A signed-in person whose session has not proved who they are recently confirms it with any way the
// account has — its password, an authenticator app code, a code by e-mail, or (with JavaScript) a passkey — and
// goes back to the page that asked. Every form works without JavaScript. Only this session becomes recently
// verified; signing in again stays available as the last resort.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { safeRedirectTarget } from "~/auth/origin.server";
import { reverifyMethodsOf, type ReverifyMethod } from "~/auth/step-up/guard.server";
import { recentlyVerified } from "~/auth/step-up/recently-verified.server";
import { REVERIFY_OTP_SECONDS, reverifyWithOtp, reverifyWithPassword, reverifyWithTotp, sendReverifyOtp } from "~/auth/step-up/reverify.server";
import { reverifyCodeForm, reverifyPasswordForm, reverifySendForm } from "~/auth/step-up/schemas";
import { FlashMessage } from "~/components/account-sections";
import { ErrorSummary, Field, StatusMessage, SubmitButton, useZodForm } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { ReverifyWithPasskey } from "~/components/reverify-passkey";
import { takeFlashNotice } from "~/http/flash.server";
import { answerIntent, goTo, intent, pageAction } from "~/http/page-action.server";
import { requirePageSession } from "~/http/page-session.server";
import { useT } from "~/i18n/react";

export const meta = pageTitle("reverify.title");

/** Where to go afterwards: a path on this site, whatever was asked (`/account` otherwise). */
function destination(url: URL): string {
  const target = new URL(safeRedirectTarget(url.searchParams.get("redirectTo")));
  return `${target.pathname}${target.search}`;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [current, ctx] = await requirePageSession(request, context);
  const url = new URL(request.url);
  const flash = takeFlashNotice(request, ctx.responseHeaders);
  const redirectTo = destination(url);
  return data(
    {
      methods: await reverifyMethodsOf(current.user),
      redirectTo,
      recent: recentlyVerified(current.session),
      email: current.user.email,
      sent: url.searchParams.get("sent") === "1",
      // From the loader: a constant of a server module is not in the browser's bundle.
      codeMinutes: REVERIFY_OTP_SECONDS / 60,
      flash,
      signInAgain: `/sign-in?${new URLSearchParams({ redirectTo, reauthenticate: "1" })}`,
    },
    { headers: ctx.responseHeaders },
  );
}

const CONFIRMED = "Thanks, it's confirmed. You can go on.";

export async function action(args: ActionFunctionArgs) {
  const url = new URL(args.request.url);
  const back = () => goTo(destination(url), CONFIRMED);
  const outcome = await pageAction(args, {
    password: intent({
      schema: reverifyPasswordForm,
      rateLimitAs: "/reverify/password",
      session: "required",
      hideFields: ["password"],
      fieldFor: (error) => (error.code === "INVALID_PASSWORD" ? "password" : undefined),
      run: async (value, current, ctx) => {
        await reverifyWithPassword(ctx, current, value);
        return back();
      },
    }),
    totp: intent({
      schema: reverifyCodeForm,
      rateLimitAs: "/reverify/totp",
      session: "required",
      fieldFor: (error) => (error.code === "INVALID_CODE" ? "code" : undefined),
      run: async (value, current, ctx) => {
        await reverifyWithTotp(ctx, current, value);
        return back();
      },
    }),
    "send-otp": intent({
      schema: reverifySendForm,
      rateLimitAs: "/reverify/send-otp",
      session: "required",
      refusalShown: "page",
      run: async (_value, current) => {
        await sendReverifyOtp(current);
        const next = new URLSearchParams(url.search);
        next.set("sent", "1");
        return goTo(`/reverify?${next}#otp`);
      },
    }),
    otp: intent({
      schema: reverifyCodeForm,
      rateLimitAs: "/reverify/otp",
      session: "required",
      fieldFor: (error) => (["INVALID_OTP", "OTP_EXPIRED", "TOO_MANY_ATTEMPTS"].includes(error.code) ? "code" : undefined),
      run: async (value, current, ctx) => {
        await reverifyWithOtp(ctx, current, value);
        return back();
      },
    }),
  });
  return answerIntent(outcome);
}

export default function Reverify() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  const here = `/reverify?${new URLSearchParams({ redirectTo: page.redirectTo })}`;
  const has = (method: ReverifyMethod) => page.methods.includes(method);
  const { t } = useT();
  return (
    <div className="card narrow">
      <h1>{t("reverify.title")}</h1>
      <FlashMessage flash={page.flash} />
      {last?.error ? <ErrorSummary id="reverify-error" errors={[last.error]} /> : null}
      <p>{page.recent ? t("reverify.recent") : t("reverify.lead")}</p>
      {has("password") ? <PasswordForm action={here} last={last} email={page.email} /> : null}
      {has("totp") ? <CodeForm intentName="totp" action={here} last={last} title={t("reverify.totpTitle")} label={t("reverify.totpLabel")} /> : null}
      {has("passkey") ? <ReverifyWithPasskey redirectTo={page.redirectTo} /> : null}
      {has("otp") ? <EmailCode action={here} last={last} sent={page.sent} minutes={page.codeMinutes} /> : null}
      <h2>{t("reverify.otherWays")}</h2>
      <ul className="plain">
        <li>
          <Link to={page.signInAgain}>{t("reverify.signInAgain")}</Link>
        </li>
        <li>
          <Link to={page.redirectTo}>{t("reverify.goBack")}</Link>
        </li>
      </ul>
    </div>
  );
}

type Last = ReturnType<typeof useActionData<typeof action>>;

function PasswordForm({ action, last, email }: { action: string; last: Last; email: string }) {
  const [form, fields] = useZodForm("reverify-password", reverifyPasswordForm, last?.intent === "password" ? last.result : undefined);
  const { t } = useT();
  return (
    <section aria-labelledby="reverify-password-heading">
      <h2 id="reverify-password-heading">{t("reverify.passwordTitle")}</h2>
      <Form method="post" action={action} {...getFormProps(form)}>
        <ErrorSummary form={form} />
        <input type="hidden" name="intent" value="password" />
        {/* Lets a password manager pick the right entry; never submitted as a field of its own. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <Field label={t("reverify.password")} meta={fields.password} type="password" autoComplete="current-password" />
        <SubmitButton>{t("reverify.confirm")}</SubmitButton>
      </Form>
    </section>
  );
}

function CodeForm({ intentName, action, last, title, label }: { intentName: "totp" | "otp"; action: string; last: Last; title: string; label: string }) {
  const [form, fields] = useZodForm(`reverify-${intentName}`, reverifyCodeForm, last?.intent === intentName ? last.result : undefined);
  const { t } = useT();
  return (
    <section aria-labelledby={`reverify-${intentName}-heading`} id={intentName}>
      <h2 id={`reverify-${intentName}-heading`}>{title}</h2>
      <Form method="post" action={action} {...getFormProps(form)}>
        <ErrorSummary form={form} />
        <input type="hidden" name="intent" value={intentName} />
        <Field label={label} meta={fields.code} type="text" autoComplete="one-time-code" inputMode="numeric" />
        <SubmitButton>{t("reverify.confirm")}</SubmitButton>
      </Form>
    </section>
  );
}

function EmailCode({ action, last, sent, minutes }: { action: string; last: Last; sent: boolean; minutes: number }) {
  const { t } = useT();
  if (!sent && last?.intent !== "otp") {
    return (
      <section aria-labelledby="reverify-email-heading">
        <h2 id="reverify-email-heading">{t("reverify.emailTitle")}</h2>
        <Form method="post" action={action}>
          <input type="hidden" name="intent" value="send-otp" />
          <SubmitButton className="secondary">{t("reverify.emailMe")}</SubmitButton>
        </Form>
      </section>
    );
  }
  return (
    <>
      {sent && !last ? <StatusMessage id="reverify-sent">{t("reverify.sent", { minutes })}</StatusMessage> : null}
      <CodeForm intentName="otp" action={action} last={last} title={t("reverify.otpTitle")} label={t("reverify.otpLabel")} />
      <Form method="post" action={action}>
        <input type="hidden" name="intent" value="send-otp" />
        <SubmitButton className="secondary">{t("reverify.emailMeNew")}</SubmitButton>
      </Form>
    </>
  );
}
