// The account's two-factor page, in pieces: backup codes shown once (with a text-file download), the
// password-confirmed forms, and (with JavaScript) following the setting when another tab changes it.
import { getFormProps } from "@conform-to/react";
import { Form, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { twoFactorPasswordFormSchema } from "~/auth/two-factor/schemas";
import { authClient } from "~/client/auth-client";
import { ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { useT } from "~/i18n/react";

export type TwoFactorIntent = "enable" | "confirm" | "disable" | "generate" | "enable-otp" | "disable-otp";
type Intent = TwoFactorIntent;

/** The codes, shown once; the page puts them in its focused status, after what was done. */
export function BackupCodes({ codes }: { codes: string[] }) {
  const { t, rich } = useT();
  const file = `${t("tf.fileHeading")}\n\n${codes.join("\n")}\n`;
  return (
    <div>
      <p>{rich("tf.saveCodes", {}, { strong: (chunks) => <strong>{chunks}</strong> })}</p>
      <ul className="backup-codes" aria-label={t("tf.codesLabel")} dir="ltr">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`} download="latchkey-backup-codes.txt">
        {t("tf.download")}
      </a>
    </div>
  );
}

export function PasswordForm({
  intent,
  id,
  label,
  submit,
  last,
  danger,
}: {
  intent: Intent;
  id: string;
  label?: string;
  submit: string;
  last?: { intent: string; result?: unknown };
  danger?: boolean;
}) {
  const [form, fields] = useZodForm(id, twoFactorPasswordFormSchema, last?.intent === intent ? (last.result as never) : undefined);
  const { t } = useT();
  return (
    <Form method="post" action={`/account/two-factor?intent=${intent}`} {...getFormProps(form)}>
      <ErrorSummary form={form} />
      <Field label={label ?? t("tf.password")} meta={fields.password} type="password" autoComplete="current-password" />
      <SubmitButton className={danger ? "danger" : undefined}>{submit}</SubmitButton>
    </Form>
  );
}

/**
 * When the live session (app/client) says two-factor was switched on or off and the page still shows the old
 * setting — it was changed in another tab — the page's data is reloaded, so it never offers to disable what is
 * already off. A change made on this page is already shown (and its one-time backup codes must stay).
 */
export function useFollowTwoFactorSetting(shown: boolean) {
  const enabled = authClient.useSession().data?.user.twoFactorEnabled;
  const revalidator = useRevalidator();
  const previous = useRef(enabled);
  useEffect(() => {
    const changed = previous.current !== undefined && enabled !== undefined && previous.current !== enabled;
    previous.current = enabled;
    if (changed && enabled !== shown) revalidator.revalidate();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [enabled]);
}
