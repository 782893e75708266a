// The account's two-factor page, in pieces: backup codes shown once (with a text-file download), the
// password-confirmed forms, and (with JavaScript) following the setting when another tab changes it.
import { getFormProps } from "@conform-to/react";
import { Form, useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { twoFactorPasswordFormSchema } from "~/auth/two-factor/schemas";
import { authClient } from "~/client/auth-client";
import { ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";

export type TwoFactorIntent = "enable" | "confirm" | "disable" | "generate" | "enable-otp" | "disable-otp";
type Intent = TwoFactorIntent;

/** The codes, shown once; the page puts them in its focused status, after what was done. */
export function BackupCodes({ codes }: { codes: string[] }) {
  const file = `Latchkey backup codes\nEach code works once.\n\n${codes.join("\n")}\n`;
  return (
    <div>
      <p>
        <strong>Save these backup codes now.</strong> Each one signs you in once if you lose your phone. They are shown only this
        once.
      </p>
      <ul className="backup-codes" aria-label="Backup codes">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <a href={`data:text/plain;charset=utf-8,${encodeURIComponent(file)}`} download="latchkey-backup-codes.txt">
        Download backup codes
      </a>
    </div>
  );
}

export function PasswordForm({
  intent,
  id,
  label = "Password",
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
  return (
    <Form method="post" action={`/account/two-factor?intent=${intent}`} {...getFormProps(form)}>
      <ErrorSummary form={form} />
      <Field label={label} meta={fields.password} type="password" autoComplete="current-password" />
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
