// The account area's two-factor page: switch it on with the password (QR code, the secret written out, and the
// first code to confirm), see the backup codes once, replace them, choose whether a code by e-mail may be the
// second step (ADR 027), or switch two-factor off. Each form posts to
// `?intent=…` and works without JavaScript. Switching it off comes back by post/redirect/get with a one-time,
// focused confirmation at the top; switching it on (or new backup codes) is answered directly, since the codes
// are shown only in that answer, with the confirmation and the codes in one focused status.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data, redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import type { z } from "zod";
import { AuthError } from "~/auth/errors";
import { requireSession } from "~/auth/session.server";
import { confirmTotpFormSchema, twoFactorPasswordFormSchema } from "~/auth/two-factor/schemas";
import { currentBackupCodes, disableTwoFactor, enableTwoFactor, generateBackupCodes, setTwoFactorOtp, twoFactorStatus } from "~/auth/two-factor/settings.server";
import { confirmWithTotp } from "~/auth/two-factor/verify.server";
import { FlashMessage } from "~/components/account-sections";
import { ErrorSummary, Field, StatusMessage, SubmitButton, useZodForm } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { BackupCodes, PasswordForm, useFollowTwoFactorSetting, type TwoFactorIntent as Intent } from "~/components/two-factor";
import { hasPassword } from "~/auth/password-flows.server";
import { loadAccountPage } from "~/http/account-page.server";
import { setFlash } from "~/http/flash.server";
import { handleForm } from "~/http/page.server";

export const meta = pageTitle("Two-factor authentication");

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadAccountPage(request, context, async ({ user }) => {
    const [status, withPassword] = await Promise.all([twoFactorStatus(user.id, user.email), hasPassword(user.id)]);
    return { ...status, hasPassword: withPassword };
  });
}

const PASSWORD_FIELD = (error: AuthError) => (error.code === "INVALID_PASSWORD" ? "password" : undefined);

function intentSpec(intent: Intent) {
  switch (intent) {
    case "confirm":
      return { schema: confirmTotpFormSchema, rateLimitAs: "/two-factor/verify-totp", fieldFor: (e: AuthError) => (e.code === "INVALID_TWO_FACTOR_AUTHENTICATION" ? "code" : undefined) };
    case "enable":
      return { schema: twoFactorPasswordFormSchema, rateLimitAs: "/two-factor/enable", fieldFor: PASSWORD_FIELD };
    case "disable":
      return { schema: twoFactorPasswordFormSchema, rateLimitAs: "/two-factor/disable", fieldFor: PASSWORD_FIELD };
    case "generate":
      return { schema: twoFactorPasswordFormSchema, rateLimitAs: "/two-factor/generate-backup-codes", fieldFor: PASSWORD_FIELD };
    case "enable-otp":
    case "disable-otp":
      return { schema: twoFactorPasswordFormSchema, rateLimitAs: "/two-factor/set-otp", fieldFor: PASSWORD_FIELD };
  }
}

export async function action({ request, context }: ActionFunctionArgs) {
  const raw = new URL(request.url).searchParams.get("intent");
  const intent: Intent = raw === "confirm" || raw === "disable" || raw === "generate" || raw === "enable-otp" || raw === "disable-otp" ? raw : "enable";
  const spec = intentSpec(intent);
  const outcome = await handleForm({
    request,
    context,
    rateLimitAs: spec.rateLimitAs,
    schema: spec.schema as z.ZodObject,
    hideFields: ["password"],
    fieldFor: spec.fieldFor,
    run: async (value, ctx): Promise<{ backupCodes?: string[]; redirect?: string }> => {
      const current = await requireSession(ctx);
      if (intent === "confirm") {
        // Backup codes are shown once, when two-factor is switched on: never again through this form.
        if (current.user.twoFactorEnabled) return { redirect: "/account/two-factor" };
        await confirmWithTotp(ctx, current, String(value.code)).catch((error) => {
          if (error instanceof AuthError && error.code === "INVALID_TWO_FACTOR_AUTHENTICATION") {
            throw new AuthError(error.code, { message: "That code is not right. Check the time on your phone and try again." });
          }
          throw error;
        });
        return { backupCodes: await currentBackupCodes(current.user.id) };
      }
      const password = String(value.password);
      if (intent === "enable") {
        await enableTwoFactor(ctx, current, { password });
        return { redirect: "/account/two-factor" };
      }
      if (intent === "disable") {
        await disableTwoFactor(ctx, current, { password });
        setFlash(ctx.responseHeaders, "Two-factor authentication is off.");
        return { redirect: "/account/two-factor" };
      }
      if (intent === "enable-otp" || intent === "disable-otp") {
        await setTwoFactorOtp(current, { password, enabled: intent === "enable-otp" });
        setFlash(ctx.responseHeaders, intent === "enable-otp" ? "Signing in can now finish with a code by email." : "Signing in no longer offers a code by email.");
        return { redirect: "/account/two-factor" };
      }
      return { backupCodes: (await generateBackupCodes(current, { password })).backupCodes };
    },
  });
  if (!outcome.ok) return data({ intent, result: outcome.result, backupCodes: null }, outcome.init);
  if (outcome.value.redirect) throw redirect(outcome.value.redirect, { headers: outcome.ctx.responseHeaders });
  return data({ intent, result: outcome.reply({ resetForm: true }), backupCodes: outcome.value.backupCodes ?? null }, { headers: outcome.ctx.responseHeaders });
}

export default function AccountTwoFactor() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  useFollowTwoFactorSetting(page.enabled);
  const [confirmForm, confirmFields] = useZodForm("two-factor-confirm", confirmTotpFormSchema, last?.intent === "confirm" ? last.result : undefined);
  const justEnabled = last?.intent === "confirm" && last.backupCodes;
  return (
    <section aria-labelledby="two-factor-heading">
      <h1 id="two-factor-heading">Two-factor authentication</h1>
      <FlashMessage flash={page.flash} />
      {last?.backupCodes ? (
        <StatusMessage focusKey={last}>
          <p>{justEnabled ? "Two-factor authentication is now on." : "New backup codes made. The old ones no longer work."}</p>
          <BackupCodes codes={last.backupCodes} />
        </StatusMessage>
      ) : null}
      {!page.hasPassword ? (
        <p className="muted">Set a password on the overview page first: two-factor authentication protects password sign-ins.</p>
      ) : page.enabled ? (
        <>
          <p>
            Two-factor authentication is <strong>on</strong>. Signing in asks for a code from your authenticator app.
            {"backupCodesLeft" in page ? ` You have ${page.backupCodesLeft} unused backup codes.` : null}
          </p>
          <h2>Code by email</h2>
          {"otpEnabled" in page && page.otpEnabled ? (
            <>
              <p>
                On: when you sign in with your password, you may finish with a code we email you instead of the app. Not after
                signing in with an emailed code, a link, a social account, or a password reset by email: those already rely on your
                inbox.
              </p>
              <PasswordForm intent="disable-otp" id="two-factor-disable-otp" label="Your password, to stop codes by email" submit="Stop offering codes by email" last={last ?? undefined} />
            </>
          ) : (
            <>
              <p>
                Off: signing in asks for the app (or a backup code). You can also allow a code by email after a password sign-in. It is
                weaker than the app: anyone who can read your email gets the code.
              </p>
              <PasswordForm intent="enable-otp" id="two-factor-enable-otp" label="Your password, to allow codes by email" submit="Allow codes by email" last={last ?? undefined} />
            </>
          )}
          <h2>Generate new backup codes</h2>
          <p className="muted">New codes replace the old ones, which then stop working.</p>
          <PasswordForm intent="generate" id="two-factor-generate" label="Your password, to replace the backup codes" submit="Generate new backup codes" last={last ?? undefined} />
          <h2>Turn off</h2>
          <PasswordForm intent="disable" id="two-factor-disable" label="Your password, to disable two-factor" submit="Disable two-factor authentication" last={last ?? undefined} danger />
        </>
      ) : page.pending ? (
        <>
          <p>Scan this QR code with your authenticator app, then enter the code it shows.</p>
          <img src={page.pending.qrCode} alt="QR code" width={240} height={240} />
          <p>
            Can't scan it? Enter this secret in the app instead: <code data-testid="totp-secret">{page.pending.secret}</code>
          </p>
          <Form method="post" action="/account/two-factor?intent=confirm" {...getFormProps(confirmForm)}>
            <ErrorSummary form={confirmForm} />
            <Field label="Code" meta={confirmFields.code} type="text" autoComplete="one-time-code" />
            <SubmitButton>Turn on two-factor authentication</SubmitButton>
          </Form>
          <h2>Start over</h2>
          <PasswordForm intent="enable" id="two-factor-enable" label="Your password, to start over" submit="Make a new QR code" last={last ?? undefined} />
        </>
      ) : (
        <>
          <p>Protect your account with a second step when you sign in: a code from an authenticator app on your phone.</p>
          <PasswordForm intent="enable" id="two-factor-enable" submit="Enable two-factor authentication" last={last ?? undefined} />
        </>
      )}
    </section>
  );
}
