// The sections of the account page. Each is its own <Form> with an intent, works without JavaScript, and shows
// its confirmation or errors inside itself.
import { getFormProps, type FormMetadata, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { useMemo, type ReactNode } from "react";
import {
  changeEmailSchema,
  changePasswordSchema,
  deleteAccountSchema,
  profileSchema,
  setPasswordSchema,
} from "~/auth/schemas";
import { CheckboxField, ErrorList, Field, SubmitButton, useZodForm } from "~/components/forms";

export interface SectionResult {
  intent: string | null;
  result?: SubmissionResult<string[]>;
  message?: string;
  error?: string;
}

type Bounds = { min: number; max: number };

/** Only the section that was submitted receives the last result. */
const lastFor = (intent: string, last: SectionResult | undefined) => (last?.intent === intent ? last.result : undefined);

function Section({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`}>{title}</h2>
      {children}
    </section>
  );
}

function Outcome({ intent, last }: { intent: string; last?: SectionResult }) {
  if (last?.intent !== intent) return null;
  return (
    <>
      {last.message ? (
        <p className="notice" role="status">
          {last.message}
        </p>
      ) : null}
      {last.error ? <ErrorList errors={[last.error]} /> : null}
    </>
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
        {children}
        <ErrorList id={form.errorId} errors={form.errors} />
        <SubmitButton name="intent" value={intent} className={danger ? "danger" : undefined}>
          {submit}
        </SubmitButton>
      </Form>
    </>
  );
}

export function VerifyEmailBanner({ email, last }: { email: string; last?: SectionResult }) {
  return (
    <div className="banner" role="region" aria-label="E-mail verification">
      <p>
        Your e-mail address <strong>{email}</strong> is not verified yet.
      </p>
      <Outcome intent="resend-verification" last={last} />
      <Form method="post" action="/account?index">
        <SubmitButton name="intent" value="resend-verification">
          Resend verification e-mail
        </SubmitButton>
      </Form>
    </div>
  );
}

export function ProfileSection({ name, image, username, last }: { name: string; image: string | null; username?: string | null; last?: SectionResult }) {
  const [form, fields] = useZodForm("update-profile", profileSchema, lastFor("update-profile", last), { name, image: image ?? "", username: username ?? "" });
  return (
    <Section id="profile" title="Profile">
      <IntentForm intent="update-profile" form={form} last={last} submit="Save profile">
        <Field label="Name" meta={fields.name} type="text" autoComplete="name" />
        <Field label="Image URL" meta={fields.image} type="url" autoComplete="photo" />
        <Field label="Username" meta={fields.username} type="text" autoComplete="username" />
      </IntentForm>
    </Section>
  );
}

export function ChangeEmailSection({ email, last }: { email: string; last?: SectionResult }) {
  const [form, fields] = useZodForm("change-email", changeEmailSchema, lastFor("change-email", last));
  return (
    <Section id="change-email" title="Change e-mail">
      <p className="muted">Currently {email}.</p>
      <IntentForm intent="change-email" form={form} last={last} submit="Change e-mail">
        <Field label="New e-mail" meta={fields.newEmail} type="email" autoComplete="email" />
      </IntentForm>
    </Section>
  );
}

export function ChangePasswordSection({ bounds, last }: { bounds: Bounds; last?: SectionResult }) {
  const schema = useMemo(() => changePasswordSchema(bounds), [bounds]);
  const [form, fields] = useZodForm("change-password", schema, lastFor("change-password", last));
  return (
    <Section id="change-password" title="Change password">
      <IntentForm intent="change-password" form={form} last={last} submit="Change password">
        <Field label="Current password" meta={fields.currentPassword} type="password" autoComplete="current-password" />
        <Field label="New password" meta={fields.newPassword} type="password" autoComplete="new-password" />
        <CheckboxField label="Sign out of other devices" meta={fields.revokeOtherSessions} />
      </IntentForm>
    </Section>
  );
}

export function SetPasswordSection({ bounds, last }: { bounds: Bounds; last?: SectionResult }) {
  const schema = useMemo(() => setPasswordSchema(bounds), [bounds]);
  const [form, fields] = useZodForm("set-password", schema, lastFor("set-password", last));
  return (
    <Section id="set-password" title="Set a password">
      <p className="muted">Your account has no password yet. Set one to sign in with your e-mail address too.</p>
      <IntentForm intent="set-password" form={form} last={last} submit="Set password">
        <Field label="New password" meta={fields.newPassword} type="password" autoComplete="new-password" />
      </IntentForm>
    </Section>
  );
}

export function DeleteAccountSection({ mode, hasPassword, last }: { mode: "on" | "email"; hasPassword: boolean; last?: SectionResult }) {
  const [form, fields] = useZodForm("delete-account", deleteAccountSchema, lastFor("delete-account", last));
  return (
    <Section id="delete-account" title="Delete account">
      <p className="warning">
        <strong>This permanently deletes your account, its sessions and sign-in methods. It cannot be undone.</strong>
      </p>
      {mode === "email" ? <p className="muted">We will e-mail you a link to confirm the deletion.</p> : null}
      <IntentForm intent="delete-account" form={form} last={last} submit="Delete account" danger>
        {hasPassword ? <Field label="Password" meta={fields.password} type="password" autoComplete="current-password" /> : null}
      </IntentForm>
    </Section>
  );
}
