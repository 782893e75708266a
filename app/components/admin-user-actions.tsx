// What an admin may do to an account on /admin/users/{id}: one plain form per act (they work without JavaScript),
// and the question before a role change, reached by the Role form's GET (?set-role=…) like the other confirmation
// steps, so making someone an admin is never one click.
import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { deleteUserFormSchema, setUserPasswordFormSchema } from "~/auth/admin/schemas";
import { ConfirmQuestion } from "~/components/confirm-question";
import { ErrorSummary, Field, SubmitButton, useZodForm } from "~/components/forms";

export type LastAnswer = { intent: string | null; result?: SubmissionResult<string[]>; error?: string } | undefined;

export interface ActionsAccount {
  id: string;
  name: string;
  email: string;
  admin: boolean;
  banned: boolean;
}

function PasswordForm({ last }: { last: LastAnswer }) {
  const [form, fields] = useZodForm("set-password", setUserPasswordFormSchema({ min: 1, max: 1024 }), last?.intent === "set-password" ? last.result : undefined);
  return (
    <Form method="post" {...getFormProps(form)}>
      <h3>Set password</h3>
      <ErrorSummary form={form} />
      <Field label="New password" meta={fields.newPassword} type="password" autoComplete="new-password" />
      <SubmitButton name="intent" value="set-password">
        Set password
      </SubmitButton>
    </Form>
  );
}

function DeleteForm({ email, last }: { email: string; last: LastAnswer }) {
  const [form, fields] = useZodForm("delete-account", deleteUserFormSchema, last?.intent === "delete" ? last.result : undefined);
  return (
    <Form method="post" {...getFormProps(form)}>
      <h3>Delete the account</h3>
      <p>This deletes {email} and everything it holds, for good.</p>
      <ErrorSummary form={form} />
      <Field label={`Type ${email} to confirm`} meta={fields.confirmEmail} type="email" autoComplete="off" />
      <SubmitButton name="intent" value="delete" className="danger">
        Delete {email}
      </SubmitButton>
    </Form>
  );
}

/** "Make Mary an admin?": what the role gives or takes, the button that does it, and a way back. */
export function RoleQuestion({ user, role, here }: { user: ActionsAccount; role: "admin" | "user"; here: string }) {
  const who = user.name || user.email;
  return (
    <ConfirmQuestion className="confirm banner" labelledBy="role-question" testId="role-question">
      <p id="role-question">
        <strong>{role === "admin" ? `Make ${who} an admin?` : `Take away ${who}'s admin role?`}</strong>
      </p>
      <p>
        {role === "admin"
          ? "An admin can open this console: see every account, ban, delete and act as people who are not admins, set passwords, and register applications."
          : "They can no longer open this console or do anything an admin does."}
      </p>
      <Form method="post" action={here} className="row-actions">
        <input type="hidden" name="role" value={role} />
        <SubmitButton name="intent" value="set-role" className={role === "admin" ? "danger" : undefined}>
          {role === "admin" ? `Make ${user.email} an admin` : `Make ${user.email} a user`}
        </SubmitButton>
        <Link to={here} className="button-link secondary">
          Cancel
        </Link>
      </Form>
    </ConfirmQuestion>
  );
}

export function AdminUserActions({ user, last }: { user: ActionsAccount; last: LastAnswer }) {
  return (
    <div className="admin-actions">
      {user.banned ? (
        <Form method="post">
          <h3>Ban</h3>
          <SubmitButton name="intent" value="unban">
            Lift the ban
          </SubmitButton>
        </Form>
      ) : (
        <Form method="post">
          <h3>Ban</h3>
          <p>Signs the account out everywhere and refuses every sign-in while the ban lasts.</p>
          <label>
            Reason (optional)
            <input type="text" name="banReason" maxLength={500} />
          </label>
          <label>
            For
            <select name="duration" defaultValue="forever">
              <option value="1h">One hour</option>
              <option value="1d">One day</option>
              <option value="7d">Seven days</option>
              <option value="30d">Thirty days</option>
              <option value="forever">Until lifted</option>
            </select>
          </label>
          <SubmitButton name="intent" value="ban" className="danger">
            Ban {user.email}
          </SubmitButton>
        </Form>
      )}
      {/* A GET to this page: it asks first (RoleQuestion), the question's button posts. */}
      <Form method="get">
        <h3>Role</h3>
        <label htmlFor="set-role">Role</label>
        <select id="set-role" name="set-role" defaultValue={user.admin ? "admin" : "user"}>
          <option value="user">User</option>
          <option value="admin">Admin</option>
        </select>
        <button type="submit">Set role…</button>
      </Form>
      <Form method="post">
        <h3>Password</h3>
        <SubmitButton name="intent" value="send-reset" className="secondary">
          Send a password reset link
        </SubmitButton>
      </Form>
      <PasswordForm last={last} />
      {user.admin ? null : (
        <Form method="post">
          <h3>Act as this person</h3>
          <p>Signs you in as them for up to an hour, with a banner on every page to stop. They will see it in their security events.</p>
          <SubmitButton name="intent" value="impersonate">
            Impersonate {user.email}
          </SubmitButton>
        </Form>
      )}
      <Form method="post">
        <h3>Sessions</h3>
        <SubmitButton name="intent" value="revoke-all" className="secondary">
          Revoke all sessions
        </SubmitButton>
      </Form>
      <DeleteForm email={user.email} last={last} />
    </div>
  );
}
