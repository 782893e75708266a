// The account area's two-factor page: switch it on with the password (QR code, the secret written out, and the
// first code to confirm), see the backup codes once, replace them, choose whether a code by e-mail may be the
// second step (ADR 027), or switch two-factor off. Each form posts to
// `?intent=…` and works without JavaScript. Switching it off comes back by post/redirect/get with a one-time,
// focused confirmation at the top; switching it on (or new backup codes) is answered directly, since the codes
// are shown only in that answer, with the confirmation and the codes in one focused status.
import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { AuthError } from "~/auth/errors";
import type { RequestContext } from "~/auth/request-context.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { confirmTotpFormSchema, twoFactorPasswordFormSchema } from "~/auth/two-factor/schemas";
import { currentBackupCodes, disableTwoFactor, enableTwoFactor, generateBackupCodes, setTwoFactorOtp, twoFactorStatus } from "~/auth/two-factor/settings.server";
import { confirmWithTotp } from "~/auth/two-factor/verify.server";
import { FlashMessage } from "~/components/account-sections";
import { KeptWhileActingLine, useActingAsSomeone } from "~/components/kept-while-acting";
import { ErrorSummary, Field, StatusMessage, SubmitButton, useZodForm } from "~/components/forms";
import { pageTitle } from "~/components/page-title";
import { BackupCodes, PasswordForm, useFollowTwoFactorSetting, type TwoFactorIntent as Intent } from "~/components/two-factor";
import { hasPassword } from "~/auth/account/password-flows.server";
import { loadAccountPage } from "~/http/account-page.server";
import { goTo, intent, pageAction, type GoTo } from "~/http/page-action.server";
import { useT } from "~/i18n/react";

export const meta = pageTitle("tf.title");

export async function loader({ request, context }: LoaderFunctionArgs) {
  return loadAccountPage(request, context, async ({ user }) => {
    const [status, withPassword] = await Promise.all([twoFactorStatus(user.id, user.email), hasPassword(user.id)]);
    return { ...status, hasPassword: withPassword };
  });
}

const HERE = "/account/two-factor";
const PASSWORD_FIELD = (error: AuthError) => (error.code === "INVALID_PASSWORD" ? "password" : undefined);

/** The forms that take the password: each its own bucket, as its JSON twin. */
const withPassword = (rateLimitAs: string, run: (password: string, current: SessionWithUser, ctx: RequestContext) => Promise<TwoFactorAnswer>) =>
  intent({
    schema: twoFactorPasswordFormSchema,
    rateLimitAs,
    session: "required",
    hideFields: ["password"],
    fieldFor: PASSWORD_FIELD,
    run: (value, current, ctx) => run(value.password, current, ctx),
  });

type TwoFactorAnswer = GoTo | { backupCodes: string[] };

export async function action({ request, context }: ActionFunctionArgs) {
  const outcome = await pageAction(
    { request, context },
    {
      confirm: intent({
        schema: confirmTotpFormSchema,
        rateLimitAs: "/two-factor/verify-totp",
        session: "required",
        hideFields: ["password"],
        fieldFor: (error) => (error.code === "INVALID_TWO_FACTOR_AUTHENTICATION" ? "code" : undefined),
        run: async (value, current, ctx): Promise<TwoFactorAnswer> => {
          // Backup codes are shown once, when two-factor is switched on: never again through this form.
          if (current.user.twoFactorEnabled) return goTo(HERE);
          await confirmWithTotp(ctx, current, value.code).catch((error) => {
            if (error instanceof AuthError && error.code === "INVALID_TWO_FACTOR_AUTHENTICATION") {
              throw new AuthError(error.code, { message: "That code is not right. Check the time on your phone and try again." });
            }
            throw error;
          });
          return { backupCodes: await currentBackupCodes(current.user.id) };
        },
      }),
      enable: withPassword("/two-factor/enable", async (password, current, ctx) => {
        await enableTwoFactor(ctx, current, { password });
        return goTo(HERE);
      }),
      disable: withPassword("/two-factor/disable", async (password, current, ctx) => {
        await disableTwoFactor(ctx, current, { password });
        return goTo(HERE, "Two-factor authentication is off.");
      }),
      generate: withPassword("/two-factor/generate-backup-codes", async (password, current, ctx) => ({
        backupCodes: (await generateBackupCodes(ctx, current, { password })).backupCodes,
      })),
      "enable-otp": withPassword("/two-factor/set-otp", async (password, current, ctx) => {
        await setTwoFactorOtp(ctx, current, { password, enabled: true });
        return goTo(HERE, "Signing in can now finish with a code by email.");
      }),
      "disable-otp": withPassword("/two-factor/set-otp", async (password, current, ctx) => {
        await setTwoFactorOtp(ctx, current, { password, enabled: false });
        return goTo(HERE, "Signing in no longer offers a code by email.");
      }),
    },
    // Each form posts to `?intent=…`; anything else is the first step, switching it on.
    { choose: (_form, url) => url.searchParams.get("intent"), otherwise: "enable" },
  );
  const intentPosted = outcome.intent as Intent;
  if (!outcome.ok) return data({ intent: intentPosted, result: outcome.result, backupCodes: null }, outcome.init);
  return data({ intent: intentPosted, result: outcome.reply({ resetForm: true }), backupCodes: outcome.value.backupCodes }, { headers: outcome.ctx.responseHeaders });
}

export default function AccountTwoFactor() {
  const page = useLoaderData<typeof loader>();
  const last = useActionData<typeof action>();
  useFollowTwoFactorSetting(page.enabled);
  const [confirmForm, confirmFields] = useZodForm("two-factor-confirm", confirmTotpFormSchema, last?.intent === "confirm" ? last.result : undefined);
  const justEnabled = last?.intent === "confirm" && last.backupCodes;
  const acting = useActingAsSomeone();
  const { t, rich } = useT();
  return (
    <section aria-labelledby="two-factor-heading">
      <h1 id="two-factor-heading">{t("tf.title")}</h1>
      <FlashMessage flash={page.flash} />
      {last?.backupCodes ? (
        <StatusMessage focusKey={last}>
          <p>{justEnabled ? t("tf.nowOn") : t("tf.newCodes")}</p>
          <BackupCodes codes={last.backupCodes} />
        </StatusMessage>
      ) : null}
      {acting ? (
        <>
          <p>{rich(page.enabled ? "tf.stateOn" : "tf.stateOff", {}, { strong: (chunks) => <strong>{chunks}</strong> })}</p>
          <KeptWhileActingLine kept="two-factor settings can't be changed" />
        </>
      ) : !page.hasPassword ? (
        <p className="muted">{rich("tf.needPassword", {}, { link: (chunks) => <Link to="/account/security">{chunks}</Link> })}</p>
      ) : page.enabled ? (
        <>
          <p>
            {rich("tf.onAsksApp", {}, { strong: (chunks) => <strong>{chunks}</strong> })}
            {"backupCodesLeft" in page ? ` ${t("tf.codesLeft", { count: page.backupCodesLeft })}` : null}
          </p>
          <h2>{t("tf.codeByEmail")}</h2>
          {"otpEnabled" in page && page.otpEnabled ? (
            <>
              <p>{t("tf.otpOn")}</p>
              <PasswordForm intent="disable-otp" id="two-factor-disable-otp" label={t("tf.otpOnLabel")} submit={t("tf.otpOnSubmit")} last={last ?? undefined} />
            </>
          ) : (
            <>
              <p>{t("tf.otpOff")}</p>
              <PasswordForm intent="enable-otp" id="two-factor-enable-otp" label={t("tf.otpOffLabel")} submit={t("tf.otpOffSubmit")} last={last ?? undefined} />
            </>
          )}
          <h2>{t("tf.generateHeading")}</h2>
          <p className="muted">{t("tf.generateLead")}</p>
          <PasswordForm intent="generate" id="two-factor-generate" label={t("tf.generateLabel")} submit={t("tf.generateHeading")} last={last ?? undefined} />
          <h2>{t("tf.turnOff")}</h2>
          <PasswordForm intent="disable" id="two-factor-disable" label={t("tf.disableLabel")} submit={t("tf.disableSubmit")} last={last ?? undefined} danger />
        </>
      ) : page.pending ? (
        <>
          <p>{t("tf.scan")}</p>
          <img src={page.pending.qrCode} alt={t("tf.qrAlt")} width={240} height={240} />
          <p>
            {rich(
              "tf.cantScan",
              {},
              {
                secret: () => (
                  <code data-testid="totp-secret" className="secret" dir="ltr">
                    {groupsOfFour(page.pending!.secret)}
                  </code>
                ),
              },
            )}
          </p>
          <Form method="post" action="/account/two-factor?intent=confirm" {...getFormProps(confirmForm)}>
            <ErrorSummary form={confirmForm} />
            <Field label={t("tf.code")} meta={confirmFields.code} type="text" autoComplete="one-time-code" inputMode="numeric" />
            <SubmitButton>{t("tf.turnOn")}</SubmitButton>
          </Form>
          <h2>{t("tf.startOver")}</h2>
          <PasswordForm intent="enable" id="two-factor-enable" label={t("tf.startOverLabel")} submit={t("tf.newQr")} last={last ?? undefined} />
        </>
      ) : (
        <>
          <p>{t("tf.protect")}</p>
          <PasswordForm intent="enable" id="two-factor-enable" submit={t("tf.enable")} last={last ?? undefined} />
        </>
      )}
    </section>
  );
}

/** "JBSWY3DPEHPK3PXP…" as "JBSW Y3DP EHPK 3PXP …": easier to copy by eye; authenticator apps ignore the spaces. */
const groupsOfFour = (secret: string) => secret.match(/.{1,4}/g)?.join(" ") ?? secret;
