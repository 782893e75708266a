// What an admin may do to an account on /admin/users/{id}: one plain form per act (they work without JavaScript),
// and the question before a role change, reached by the Role form's GET (?set-role=…) like the other confirmation
// steps, so making someone an admin is never one click. In the reading admin's language; the account's name in
// <bdi>, its address dir="ltr".
import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { deleteUserFormSchema, setUserPasswordFormSchema } from "~/auth/admin/schemas";
import { ConfirmQuestion } from "~/components/confirm-question";
import { ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";
import { useT } from "~/i18n/react";

export type LastAnswer = { intent: string | null; result?: SubmissionResult<string[]>; error?: string } | undefined;

export interface ActionsAccount {
  id: string;
  name: string;
  email: string;
  admin: boolean;
  banned: boolean;
}

const TAGS = {
  ltr: (chunks: ReactNode[]) => <span dir="ltr">{chunks}</span>,
  bdi: (chunks: ReactNode[]) => <bdi>{chunks}</bdi>,
};

function PasswordForm({ last }: { last: LastAnswer }) {
  const t = useT();
  const [form, fields] = useZodForm("set-password", setUserPasswordFormSchema({ min: 1, max: 1024 }), last?.intent === "set-password" ? last.result : undefined);
  return (
    <Form method="post" {...getFormProps(form)}>
      <h3>{t.t("admin.actions.setPassword")}</h3>
      <ErrorSummary form={form} />
      <Field label={t.t("admin.actions.newPassword")} meta={fields.newPassword} type="password" autoComplete="new-password" />
      <SubmitButton name="intent" value="set-password">
        {t.t("admin.actions.setPassword")}
      </SubmitButton>
    </Form>
  );
}

function DeleteForm({ email, last }: { email: string; last: LastAnswer }) {
  const t = useT();
  const [form, fields] = useZodForm("delete-account", deleteUserFormSchema, last?.intent === "delete" ? last.result : undefined);
  return (
    <Form method="post" {...getFormProps(form)}>
      <h3>{t.t("admin.actions.deleteTitle")}</h3>
      <p>{t.rich("admin.actions.deleteText", { email }, TAGS)}</p>
      <ErrorSummary form={form} />
      <Field label={<>{t.rich("admin.actions.deleteConfirm", { email }, TAGS)}</>} meta={fields.confirmEmail} type="email" autoComplete="off" />
      <SubmitButton name="intent" value="delete" className="danger">
        {t.rich("admin.actions.delete", { email }, TAGS)}
      </SubmitButton>
    </Form>
  );
}

/** "Make Mary an admin?": what the role gives or takes, the button that does it, and a way back. */
export function RoleQuestion({ user, role, here }: { user: ActionsAccount; role: "admin" | "user"; here: string }) {
  const t = useT();
  const who = { name: user.name || user.email };
  return (
    <ConfirmQuestion className="confirm banner" labelledBy="role-question" testId="role-question">
      <p id="role-question">
        <strong>{t.rich(role === "admin" ? "admin.role.makeAdminQuestion" : "admin.role.makeUserQuestion", who, TAGS)}</strong>
      </p>
      <p>{t.t(role === "admin" ? "admin.role.adminMeans" : "admin.role.userMeans")}</p>
      <Form method="post" action={here} className="row-actions">
        <input type="hidden" name="role" value={role} />
        <SubmitButton name="intent" value="set-role" className={role === "admin" ? "danger" : undefined}>
          {t.rich(role === "admin" ? "admin.role.makeAdmin" : "admin.role.makeUser", { email: user.email }, TAGS)}
        </SubmitButton>
        <Link to={here} className="button-link secondary">
          {t.t("admin.cancel")}
        </Link>
      </Form>
    </ConfirmQuestion>
  );
}

export function AdminUserActions({ user, last }: { user: ActionsAccount; last: LastAnswer }) {
  const t = useT();
  const email = { email: user.email };
  return (
    <div className="admin-actions">
      {user.banned ? (
        <Form method="post">
          <h3>{t.t("admin.actions.banTitle")}</h3>
          <SubmitButton name="intent" value="unban">
            {t.t("admin.actions.unban")}
          </SubmitButton>
        </Form>
      ) : (
        <Form method="post">
          <h3>{t.t("admin.actions.banTitle")}</h3>
          <p>{t.t("admin.actions.banText")}</p>
          <label>
            {t.t("admin.actions.banReason")}
            <input type="text" name="banReason" maxLength={500} />
          </label>
          <label>
            {t.t("admin.actions.banFor")}
            <select name="duration" defaultValue="forever">
              <option value="1h">{t.t("admin.actions.ban1h")}</option>
              <option value="1d">{t.t("admin.actions.ban1d")}</option>
              <option value="7d">{t.t("admin.actions.ban7d")}</option>
              <option value="30d">{t.t("admin.actions.ban30d")}</option>
              <option value="forever">{t.t("admin.actions.banForever")}</option>
            </select>
          </label>
          <SubmitButton name="intent" value="ban" className="danger">
            {t.rich("admin.actions.ban", email, TAGS)}
          </SubmitButton>
        </Form>
      )}
      {/* A GET to this page: it asks first (RoleQuestion), the question's button posts. */}
      <Form method="get">
        <h3>{t.t("admin.actions.roleTitle")}</h3>
        <label htmlFor="set-role">{t.t("admin.actions.roleTitle")}</label>
        <select id="set-role" name="set-role" defaultValue={user.admin ? "admin" : "user"}>
          <option value="user">{t.t("admin.actions.roleUser")}</option>
          <option value="admin">{t.t("admin.actions.roleAdmin")}</option>
        </select>
        <button type="submit">{t.t("admin.actions.setRole")}</button>
      </Form>
      <Form method="post">
        <h3>{t.t("admin.actions.passwordTitle")}</h3>
        <SubmitButton name="intent" value="send-reset" className="secondary">
          {t.t("admin.actions.sendReset")}
        </SubmitButton>
      </Form>
      <PasswordForm last={last} />
      {user.admin ? null : (
        <Form method="post">
          <h3>{t.t("admin.actions.actAsTitle")}</h3>
          <p>{t.t("admin.actions.actAsText")}</p>
          <SubmitButton name="intent" value="impersonate">
            {t.rich("admin.actions.impersonate", email, TAGS)}
          </SubmitButton>
        </Form>
      )}
      <Form method="post">
        <h3>{t.t("admin.actions.sessionsTitle")}</h3>
        <SubmitButton name="intent" value="revoke-all" className="secondary">
          {t.t("admin.actions.revokeAll")}
        </SubmitButton>
      </Form>
      <DeleteForm email={user.email} last={last} />
    </div>
  );
}
