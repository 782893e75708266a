// The account area's form actions. Each intent parses its form with the same zod schema the browser uses and
// calls the same domain function as the JSON API. Success is a post/redirect/get back to the page that posted,
// with a one-time message (flash) that page shows focused at the top; errors come back next to the right field,
// in words for people, with the form's error summary focused (docs/decisions/013-account-area-and-feedback.md).
import { parseWithZod } from "@conform-to/zod/v4";
import type { SubmissionResult } from "@conform-to/react";
import { data, redirect, type AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { changeEmail } from "~/auth/change-email.server";
import { deleteUser, USER_DELETED } from "~/auth/delete-account.server";
import { requestVerificationEmail } from "~/auth/email-verification.server";
import { AuthError } from "~/auth/errors";
import { knownError } from "~/http/known-error.server";
import { changePassword, setPassword } from "~/auth/password-flows.server";
import { passwordBounds } from "~/auth/password.server";
import type { RequestContext } from "~/auth/request-context.server";
import { enforceRateLimit } from "~/auth/rate-limit.server";
import { describeDevice } from "~/auth/device";
import { setFlash } from "~/http/flash.server";
import { markFormFailed, pageRequestContext, readForm } from "~/http/page.server";
import { wordsFor } from "~/http/page-messages.server";
import {
  changeEmailSchema,
  changePasswordSchema,
  deleteAccountSchema,
  profileSchema,
  setPasswordSchema,
} from "~/auth/schemas";
import { getSession, listSessions, revokeSessionById, signOut, type SessionWithUser } from "~/auth/session.server";
import { updateUser } from "~/auth/users.server";

/** @deprecated Confirmations now travel as a flash (`setFlash`); kept so existing imports still compile. */
export const ACCOUNT_NOTICES = {
  signedOutElsewhere: { key: "password-changed", text: "Password changed. Your other devices are signed out." },
} as const;

/** Where each page of the account area lives; an action answers its own page. */
export const ACCOUNT_PAGES = {
  overview: "/account",
  profile: "/account/profile",
  security: "/account/security",
  sessions: "/account/sessions",
  delete: "/account/delete",
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
  /** A confirmation to show in the section that was submitted (kept for pages that answer without a redirect). */
  message?: string;
  /** An error with no field behind it (rate limit, unknown intent); shown in the page's error summary. */
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
  /** The work; `message` is the confirmation shown after the redirect, `redirect` a page other than the poster. */
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
          ? `We sent a confirmation link to ${current.user.email}. Your address changes to ${value.newEmail.toLowerCase()} when you follow it.`
          : `Your email address is now ${value.newEmail.toLowerCase()}. We sent a verification link to it.`,
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
      return { message: token ? "Password changed. Your other devices are signed out." : "Password changed." };
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
    fieldFor: (error) => (error.code === "INVALID_PASSWORD" ? "password" : error.code === "EMAIL_MISMATCH" ? "confirmEmail" : undefined),
    run: async (ctx, current, value) => {
      // The typed address is the page's confirmation step (the JSON API has its own: password or e-mailed link).
      if (value.confirmEmail.trim().toLowerCase() !== current.user.email) throw new AuthError("EMAIL_MISMATCH");
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
      return { message: `We sent a verification link to ${current.user.email}. Follow it to verify your address.` };
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
  const page = new URL(request.url).pathname;
  const back = (message: string, location = page): AccountOutcome => {
    if (message) setFlash(ctx.responseHeaders, message);
    return { kind: "redirect", location, headers: ctx.responseHeaders };
  };
  const failed = (status: number, body: Omit<AccountActionResult, "intent">, headers: Headers): AccountOutcome => {
    markFormFailed(loadContext);
    return reply(intent || null, status, body, headers);
  };
  try {
    if (intent === "sign-out") {
      await enforceRateLimit(ctx.clientIp, "/sign-out");
      await signOut(ctx);
      return back("You are signed out.", "/");
    }
    const spec = INTENTS[intent as keyof typeof INTENTS] as IntentSpec<z.ZodObject> | undefined;
    await enforceRateLimit(ctx.clientIp, spec?.rateLimitAs ?? "/revoke-session");
    const current = await getSession(ctx);
    if (!current) return { kind: "redirect", location: `/sign-in?redirectTo=${encodeURIComponent(page)}`, headers: ctx.responseHeaders };
    if (intent === "revoke-session") {
      const id = form.get("sessionId") ?? "";
      const revoked = (await listSessions(current.user.id)).find((s) => s.id === id);
      await revokeSessionById(ctx, current, id);
      return back(revoked ? `Signed out ${describeDevice(revoked.userAgent)}.` : "That session had already ended.");
    }
    if (!spec) return failed(400, { error: "Something went wrong with that button. Reload the page and try again." }, ctx.responseHeaders);

    const schema = spec.schema();
    const submission = parseWithZod(form.pick(schema), { schema });
    const hideFields = spec.hidePasswords ? ["password", "currentPassword", "newPassword"] : undefined;
    if (submission.status !== "success") {
      return failed(400, { result: submission.reply({ hideFields }) }, ctx.responseHeaders);
    }
    try {
      const outcome = await spec.run(ctx, current, submission.value);
      return back(outcome.message ?? "", outcome.redirect);
    } catch (thrown) {
      const error = knownError(thrown);
      if (!error) throw thrown;
      const field = spec.fieldFor?.(error);
      const message = wordsFor(error);
      const result = submission.reply({
        hideFields,
        ...(field ? { fieldErrors: { [field]: [message] } } : { formErrors: [message] }),
      });
      return failed(error.status, { result }, mergeHeaders(ctx.responseHeaders, error.headers));
    }
  } catch (thrown) {
    // The rate limit, before any form was read into a submission.
    const error = knownError(thrown);
    if (!error) throw thrown;
    return failed(error.status, { error: wordsFor(error) }, mergeHeaders(ctx.responseHeaders, error.headers));
  }
}

/** The `action` of every account page: the intents above, answered on the page that posted. */
export async function accountAction({ request, context }: { request: Request; context: AppLoadContext }) {
  const outcome = await runAccountAction(request, context);
  if (outcome.kind === "redirect") throw redirect(outcome.location, { headers: outcome.headers });
  return data(outcome.body, { status: outcome.status, headers: outcome.headers });
}

function mergeHeaders(headers: Headers, extra: Record<string, string>): Headers {
  for (const [name, value] of Object.entries(extra)) headers.set(name, value);
  return headers;
}
