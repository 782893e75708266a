// The sections of the account pages. Each is its own <Form> with an intent and works without JavaScript. Its
// errors come back in an error summary at the top of the section's form (focused), next to each field too; a
// success redirects back to the page, which shows the confirmation at its top (see `FlashMessage`).
import { getFormProps, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { Form, Link, useActionData } from "@remix-run/react";
import { useMemo, type ReactNode } from "react";
import {
  changeEmailSchema,
  changePasswordSchema,
  deleteAccountSchema,
  profileSchema,
  setPasswordSchema,
} from "~/auth/schemas";
import { passwordLengthHint } from "~/auth/schemas";
import { USERNAME_HINT } from "~/auth/username/schemas";
import { DevOutboxLink } from "~/components/dev-outbox-link";
import { CheckboxField, ErrorSummary, Field, StatusMessage, SubmitButton, useZodForm } from "~/components/forms";
import { useT } from "~/i18n/react";

export interface SectionResult {
  intent: string | null;
  result?: SubmissionResult<string[]>;
  message?: string;
  error?: string;
}

type Bounds = { min: number; max: number };

/** Only the section that was submitted receives the last result. */
const lastFor = (intent: string, last: SectionResult | undefined) => (last?.intent === intent ? last.result : undefined);

/** A titled section of a page, labelled by its heading. */
export function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {children}
    </section>
  );
}

/** A section's answer when it came back without a redirect: a confirmation, or an error with no field. */
function Outcome({ intent, last }: { intent: string; last?: SectionResult }) {
  const { said } = useT();
  if (last?.intent !== intent) return null;
  return (
    <>
      {last.message ? <StatusMessage focusKey={last}>{said(last.message)}</StatusMessage> : null}
      {last.error ? <ErrorSummary errors={[last.error]} /> : null}
    </>
  );
}

/** Whether a page action's answer (answerIntent's shape, or a bare conform result) carries any error. */
export function answeredWithErrors(answer: unknown): boolean {
  if (!answer || typeof answer !== "object") return false;
  const { error, result } = answer as { error?: unknown; result?: { error?: unknown } };
  const errorsOf = (errors: unknown) =>
    typeof errors === "object" && errors !== null && Object.values(errors).some((list) => Array.isArray(list) && list.length > 0);
  return (typeof error === "string" && error !== "") || errorsOf(error) || errorsOf(result?.error);
}

/**
 * The one-time confirmation an account page shows at its top after a successful post (post/redirect/get). With
 * JavaScript a refused post does not reload the page's data (single fetch keeps it after a 4xx), so the old
 * notice would stand beside the new error: it is dropped once the page's action answers with errors.
 */
export function FlashMessage({ flash }: { flash: { text: string; id: string; link?: { href: string; text: string } } | null }) {
  const refused = answeredWithErrors(useActionData());
  const { said } = useT();
  if (!flash || refused) return null;
  return (
    <StatusMessage id="flash" focusKey={flash.id}>
      {said(flash.text)}
      {flash.link ? (
        <>
          {" "}
          <Link to={flash.link.href}>{said(flash.link.text)}</Link>
        </>
      ) : null}
    </StatusMessage>
  );
}

/** One section's form: its outcome, its fields, its form-level errors and a submit button naming the intent. */
function IntentForm({
  intent,
  form,
  last,
  submit,
  danger,
  children,
}: {
  intent: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- any section's form, whatever its fields
  form: FormMetadata<any, string[]>;
  last?: SectionResult;
  submit: string;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <>
      <Outcome intent={intent} last={last} />
      <Form method="post" {...getFormProps(form)}>
        <ErrorSummary form={form} />
        {children}
        <SubmitButton name="intent" value={intent} className={danger ? "danger" : undefined}>
          {submit}
        </SubmitButton>
      </Form>
    </>
  );
}

export function VerifyEmailBanner({ email, last, outbox }: { email: string; last?: SectionResult; outbox?: boolean }) {
  const { t, rich } = useT();
  return (
    <div className="banner" role="region" aria-label={t("account.verifyRegion")}>
      <p>
        {rich("account.notVerified", { email }, { strong: (chunks) => <strong key="email" className="address" dir="ltr">{chunks}</strong> })}
        <DevOutboxLink show={outbox} />
      </p>
      <Outcome intent="resend-verification" last={last} />
      <Form method="post" action="/account?index">
        <SubmitButton name="intent" value="resend-verification" className="secondary">
          {t("account.resendVerification")}
        </SubmitButton>
      </Form>
    </div>
  );
}

export function ProfileSection({ name, image, username, last }: { name: string; image: string | null; username?: string | null; last?: SectionResult }) {
  const [form, fields] = useZodForm("update-profile", profileSchema, lastFor("update-profile", last), { name, image: image ?? "", username: username ?? "" });
  const { t, said } = useT();
  return (
    <Section id="profile" title={t("profile.title")}>
      <IntentForm intent="update-profile" form={form} last={last} submit={t("profile.save")}>
        <Field label={t("profile.name")} meta={fields.name} type="text" autoComplete="name" />
        <Field label={t("profile.image")} meta={fields.image} type="url" autoComplete="photo" />
        <Field label={t("profile.username")} meta={fields.username} type="text" autoComplete="username" hint={said(USERNAME_HINT)} />
      </IntentForm>
    </Section>
  );
}

export function ChangeEmailSection({ email, pending, last }: { email: string; pending?: string | null; last?: SectionResult }) {
  const [form, fields] = useZodForm("change-email", changeEmailSchema, lastFor("change-email", last));
  const { t, rich } = useT();
  const ltr = (chunks: ReactNode[]) => (
    <span key={String(chunks)} className="address" dir="ltr">
      {chunks}
    </span>
  );
  return (
    <Section id="change-email" title={t("profile.changeEmail")}>
      <p className="muted">{rich("profile.currently", { email }, { ltr })}</p>
      {pending ? (
        <p className="banner" data-testid="pending-email">
          {rich(
            "profile.pending",
            { email, newEmail: pending },
            {
              ltr,
              new: (chunks) => (
                <strong key="new" className="address" dir="ltr">
                  {chunks}
                </strong>
              ),
            },
          )}
        </p>
      ) : null}
      <IntentForm intent="change-email" form={form} last={last} submit={t("profile.changeEmail")}>
        <Field label={t("profile.newEmail")} meta={fields.newEmail} type="email" autoComplete="email" />
      </IntentForm>
    </Section>
  );
}

export function ChangePasswordSection({ bounds, last }: { bounds: Bounds; last?: SectionResult }) {
  const schema = useMemo(() => changePasswordSchema(bounds), [bounds]);
  const [form, fields] = useZodForm("change-password", schema, lastFor("change-password", last));
  const { t, said } = useT();
  return (
    <Section id="change-password" title={t("security.changePassword")}>
      <IntentForm intent="change-password" form={form} last={last} submit={t("security.changePassword")}>
        <Field label={t("security.currentPassword")} meta={fields.currentPassword} type="password" autoComplete="current-password" />
        <Field label={t("security.newPassword")} meta={fields.newPassword} type="password" autoComplete="new-password" hint={said(passwordLengthHint(bounds))} />
        <CheckboxField label={t("security.signOutOthers")} meta={fields.revokeOtherSessions} />
      </IntentForm>
    </Section>
  );
}

export function SetPasswordSection({ bounds, last }: { bounds: Bounds; last?: SectionResult }) {
  const schema = useMemo(() => setPasswordSchema(bounds), [bounds]);
  const [form, fields] = useZodForm("set-password", schema, lastFor("set-password", last));
  const { t, said } = useT();
  return (
    <Section id="set-password" title={t("security.setPassword")}>
      <p className="muted">{t("security.noPasswordYet")}</p>
      <IntentForm intent="set-password" form={form} last={last} submit={t("security.setPasswordSubmit")}>
        <Field label={t("security.newPassword")} meta={fields.newPassword} type="password" autoComplete="new-password" hint={said(passwordLengthHint(bounds))} />
      </IntentForm>
    </Section>
  );
}

export function DeleteAccountSection({
  mode,
  hasPassword,
  last,
  email,
}: {
  mode: "on" | "email";
  hasPassword: boolean;
  last?: SectionResult;
  /** The address to type as confirmation (the account's own). */
  email?: string;
}) {
  const [form, fields] = useZodForm("delete-account", deleteAccountSchema, lastFor("delete-account", last));
  const { t, rich } = useT();
  return (
    <Section id="delete-account" title={t("deleteAccount.title")}>
      <p className="warning">
        <strong>{t("deleteAccount.warning")}</strong>
      </p>
      {mode === "email" ? <p className="muted">{t("deleteAccount.byEmail")}</p> : null}
      <IntentForm intent="delete-account" form={form} last={last} submit={t("deleteAccount.title")} danger>
        {hasPassword ? <Field label={t("deleteAccount.password")} meta={fields.password} type="password" autoComplete="current-password" /> : null}
        <Field
          label={t("deleteAccount.confirmEmail")}
          meta={fields.confirmEmail}
          type="text"
          autoComplete="off"
          hint={email ? <>{rich("deleteAccount.typeExactly", { email }, { strong: (chunks) => <strong className="address" dir="ltr">{chunks}</strong> })}</> : undefined}
        />
      </IntentForm>
    </Section>
  );
}
