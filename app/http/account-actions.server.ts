// The account page's form actions. Each intent parses its form with the same zod schema the browser uses and
// calls the same domain function as the JSON API; errors come back next to the right field.
import { parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { changeEmail } from "~/auth/change-email.server";
import { deleteUser, USER_DELETED } from "~/auth/delete-account.server";
import { requestVerificationEmail } from "~/auth/email-verification.server";
import type { AuthError } from "~/auth/errors";
import { knownError } from "~/http/known-error.server";
import { changePassword, setPassword } from "~/auth/password-flows.server";
import { passwordBounds } from "~/auth/password.server";
import type { RequestContext } from "~/auth/request-context.server";
import { enforceRateLimit } from "~/auth/rate-limit.server";
import { pageRequestContext, readForm } from "~/http/page.server";
import {
  changeEmailSchema,
  changePasswordSchema,
  deleteAccountSchema,
  profileSchema,
  setPasswordSchema,
} from "~/auth/schemas";
import { getSession, revokeSessionById, signOut, type SessionWithUser } from "~/auth/session.server";
import { updateUser } from "~/auth/users.server";

/** Confirmations shown after a redirect (post/redirect/get), by a fixed key in the query string. */
export const ACCOUNT_NOTICES = {
  signedOutElsewhere: { key: "password-changed", text: "Password changed. Other devices are signed out." },
} as const;

export type AccountIntent =
  | "update-profile"
  | "change-email"
  | "change-password"
  | "set-password"
  | "delete-account"
  | "resend-verification"
  | "revoke-session"
  | "sign-out";

export interface AccountActionResult {
  intent: AccountIntent | null;
  result?: SubmissionResult<string[]>;
  /** A confirmation to show in the section that was submitted. */
  message?: string;
  error?: string;
}

export type AccountOutcome =
  | { kind: "reply"; status: number; body: AccountActionResult; headers: Headers }
  | { kind: "redirect"; location: string; headers: Headers };

interface IntentSpec<S extends z.ZodObject> {
  schema: () => S;
  /** The API path whose rate-limit bucket this action shares. */
  rateLimitAs: string | null;
  hidePasswords?: boolean;
  /** Which field an error belongs next to; form-level when undefined. */
  fieldFor?: (error: AuthError) => string | undefined;
  run: (ctx: RequestContext, current: SessionWithUser, value: z.infer<S>) => Promise<{ message?: string; redirect?: string }>;
}

const define = <S extends z.ZodObject>(spec: IntentSpec<S>) => spec;

const INTENTS = {
  "update-profile": define({
    schema: () => profileSchema,
    rateLimitAs: "/update-user",
    fieldFor: (error) => (error.code.startsWith("USERNAME") ? "username" : undefined),
    run: async (ctx, current, value) => {
      await updateUser(ctx, current, { name: value.name, image: value.image ?? null, username: value.username });
      return { message: "Profile saved." };
    },
  }),
  "change-email": define({
    schema: () => changeEmailSchema,
    rateLimitAs: "/change-email",
    fieldFor: () => "newEmail",
    run: async (ctx, current, value) => {
      const { pendingConfirmation } = await changeEmail(ctx, current, { newEmail: value.newEmail });
      return {
        message: pendingConfirmation
          ? `We sent a confirmation link to ${current.user.email}. Your address changes when you follow it.`
          : `Your e-mail address is now ${value.newEmail.toLowerCase()}. We sent it a verification link.`,
      };
    },
  }),
  "change-password": define({
    schema: () => changePasswordSchema(passwordBounds()),
    rateLimitAs: "/change-password",
    hidePasswords: true,
    fieldFor: (error) => (error.code === "INVALID_PASSWORD" ? "currentPassword" : error.code.startsWith("PASSWORD") ? "newPassword" : undefined),
    run: async (ctx, current, value) => {
      const { token } = await changePassword(ctx, current, { ...value, revokeOtherSessions: value.revokeOtherSessions === true });
      // A new session cookie replaced the old one: without JavaScript the page's loader would still see the
      // old cookie in this same request, so answer with a redirect that the browser follows with the new one.
      if (token) return { redirect: `/account?notice=${ACCOUNT_NOTICES.signedOutElsewhere.key}` };
      return { message: "Password changed." };
    },
  }),
  "set-password": define({
    schema: () => setPasswordSchema(passwordBounds()),
    rateLimitAs: "/change-password",
    hidePasswords: true,
    fieldFor: (error) => (error.code.startsWith("PASSWORD") ? "newPassword" : undefined),
    run: async (_ctx, current, value) => {
      await setPassword(current, value.newPassword);
      return { message: "Password set. You can now sign in with it." };
    },
  }),
  "delete-account": define({
    schema: () => deleteAccountSchema,
    rateLimitAs: "/delete-user",
    hidePasswords: true,
    fieldFor: (error) => (error.code === "INVALID_PASSWORD" ? "password" : undefined),
    run: async (ctx, current, value) => {
      const outcome = await deleteUser(ctx, current, { password: value.password || undefined, callbackURL: "/account-deleted" });
      if (outcome.message === USER_DELETED) return { redirect: "/account-deleted" };
      return { message: `We sent a confirmation link to ${current.user.email}. Your account is deleted when you follow it.` };
    },
  }),
  "resend-verification": define({
    schema: () => z.object({}),
    rateLimitAs: "/send-verification-email",
    run: async (ctx, current) => {
      await requestVerificationEmail(ctx, { email: current.user.email });
      return { message: `Verification e-mail sent to ${current.user.email}.` };
    },
  }),
} satisfies Partial<Record<AccountIntent, IntentSpec<z.ZodObject>>>;

function reply(intent: AccountIntent | null, status: number, body: Omit<AccountActionResult, "intent">, headers: Headers): AccountOutcome {
  return { kind: "reply", status, body: { intent, ...body }, headers };
}

export async function runAccountAction(request: Request, loadContext: AppLoadContext): Promise<AccountOutcome> {
  // Origin first (a refused one is a 403 page), then the bounded read; the rate limit's bucket depends on the
  // intent, so it is counted once that one field is known and before the intent's schema parses anything.
  const ctx = await pageRequestContext(request, loadContext);
  const form = await readForm(request);
  const intent = (form.get("intent") ?? "") as AccountIntent;
  try {
    if (intent === "sign-out") {
      await enforceRateLimit(ctx.clientIp, "/sign-out");
      await signOut(ctx);
      return { kind: "redirect", location: "/", headers: ctx.responseHeaders };
    }
    const spec = INTENTS[intent as keyof typeof INTENTS] as IntentSpec<z.ZodObject> | undefined;
    await enforceRateLimit(ctx.clientIp, spec?.rateLimitAs ?? "/revoke-session");
    const current = await getSession(ctx);
    if (!current) return { kind: "redirect", location: "/sign-in?redirectTo=%2Faccount", headers: ctx.responseHeaders };
    if (intent === "revoke-session") {
      await revokeSessionById(ctx, current, form.get("sessionId") ?? "");
      return { kind: "redirect", location: "/account", headers: ctx.responseHeaders };
    }
    if (!spec) return reply(null, 400, { error: "Unknown action" }, ctx.responseHeaders);

    const schema = spec.schema();
    const submission = parseWithZod(form.pick(schema), { schema });
    const hideFields = spec.hidePasswords ? ["password", "currentPassword", "newPassword"] : undefined;
    if (submission.status !== "success") {
      return reply(intent, 400, { result: submission.reply({ hideFields }) }, ctx.responseHeaders);
    }
    try {
      const outcome = await spec.run(ctx, current, submission.value);
      if (outcome.redirect) return { kind: "redirect", location: outcome.redirect, headers: ctx.responseHeaders };
      return reply(intent, 200, { result: submission.reply({ resetForm: true }), message: outcome.message }, ctx.responseHeaders);
    } catch (thrown) {
      const error = knownError(thrown);
      if (!error) throw thrown;
      const field = spec.fieldFor?.(error);
      const result = submission.reply({
        hideFields,
        ...(field ? { fieldErrors: { [field]: [error.message] } } : { formErrors: [error.message] }),
      });
      return reply(intent, error.status, { result }, mergeHeaders(ctx.responseHeaders, error.headers));
    }
  } catch (thrown) {
    // The rate limit, before any form was read into a submission.
    const error = knownError(thrown);
    if (!error) throw thrown;
    return reply(intent || null, error.status, { error: error.message }, mergeHeaders(ctx.responseHeaders, error.headers));
  }
}

function mergeHeaders(headers: Headers, extra: Record<string, string>): Headers {
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return headers;
}
