// The account area's form actions, as intents of the page pipeline (page-action.server.ts). Each parses its form
// with the same zod schema the browser uses and calls the same domain function as the JSON API. Success is a
// post/redirect/get back to the page that posted, with a one-time message (flash) that page shows focused at the
// top; errors come back next to the right field, in words for people, with the form's error summary focused
// (docs/decisions/013-account-area-and-feedback.md).
import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { changeEmail } from "~/auth/account/change-email.server";
import { deleteUser, USER_DELETED } from "~/auth/account/delete-account.server";
import { describeDevice } from "~/auth/core/device";
import { requestVerificationEmail } from "~/auth/account/email-verification.server";
import { AuthError } from "~/auth/errors";
import { changePassword, setPassword } from "~/auth/account/password-flows.server";
import { passwordBounds } from "~/auth/account/password.server";
import type { RequestContext } from "~/auth/request-context.server";
import { changeEmailSchema, changePasswordSchema, deleteAccountSchema, profileSchema, setPasswordSchema } from "~/auth/schemas";
import { findOwnSession, revokeOtherSessions, revokeSessionById } from "~/auth/session/own-sessions.server";
import { signOut } from "~/auth/session/sessions.server";
import { endAllSessions } from "~/auth/security-events/end-all-sessions.server";
import { updateUser } from "~/auth/account/users.server";
import { answerIntent, goTo, intent, pageAction } from "~/http/page-action.server";

const PASSWORDS = ["password", "currentPassword", "newPassword"];

/** Back to the page that posted (its path: an index route's `?index` is not part of it). */
const back = (ctx: RequestContext, message: string) => goTo(new URL(ctx.request.url).pathname, message);

/** Built per request: the password bounds are the configuration's. */
function accountIntents() {
  return {
    "update-profile": intent({
      schema: profileSchema,
      rateLimitAs: "/update-user",
      session: "required",
      fieldFor: (error) => (error.code.startsWith("USERNAME") ? "username" : undefined),
      run: async (value, current, ctx) => {
        await updateUser(ctx, current, { name: value.name, image: value.image ?? null, username: value.username });
        return back(ctx, "Profile saved.");
      },
    }),
    "change-email": intent({
      schema: changeEmailSchema,
      rateLimitAs: "/change-email",
      session: "required",
      fieldFor: () => "newEmail",
      run: async (value, current, ctx) => {
        const { pendingConfirmation } = await changeEmail(ctx, current, { newEmail: value.newEmail });
        const newEmail = value.newEmail.toLowerCase();
        return back(
          ctx,
          pendingConfirmation
            ? `We sent a confirmation link to ${current.user.email}. Your address changes to ${newEmail} when you follow it.`
            : `Your email address is now ${newEmail}. We sent a verification link to it.`,
        );
      },
    }),
    "change-password": intent({
      schema: changePasswordSchema(passwordBounds()),
      rateLimitAs: "/change-password",
      session: "required",
      hideFields: PASSWORDS,
      fieldFor: (error) => (error.code === "INVALID_PASSWORD" ? "currentPassword" : error.code.startsWith("PASSWORD") ? "newPassword" : undefined),
      run: async (value, current, ctx) => {
        const { token } = await changePassword(ctx, current, { ...value, revokeOtherSessions: value.revokeOtherSessions === true });
        // A new session cookie replaced the old one: without JavaScript the page's loader would still see the
        // old cookie in this same request, so answer with a redirect that the browser follows with the new one.
        return back(ctx, token ? "Password changed. Your other devices are signed out." : "Password changed.");
      },
    }),
    "set-password": intent({
      schema: setPasswordSchema(passwordBounds()),
      rateLimitAs: "/change-password",
      session: "required",
      hideFields: PASSWORDS,
      fieldFor: (error) => (error.code.startsWith("PASSWORD") ? "newPassword" : undefined),
      run: async (value, current, ctx) => {
        await setPassword(ctx, current, value.newPassword);
        return back(ctx, "Password set. You can now sign in with it.");
      },
    }),
    "delete-account": intent({
      schema: deleteAccountSchema,
      rateLimitAs: "/delete-user",
      session: "required",
      hideFields: PASSWORDS,
      fieldFor: (error) => (error.code === "INVALID_PASSWORD" ? "password" : error.code === "EMAIL_MISMATCH" ? "confirmEmail" : undefined),
      run: async (value, current, ctx) => {
        // The typed address is the page's confirmation step (the JSON API has its own: password or e-mailed link).
        if (value.confirmEmail.trim().toLowerCase() !== current.user.email) throw new AuthError("EMAIL_MISMATCH");
        const outcome = await deleteUser(ctx, current, { password: value.password || undefined, callbackURL: "/account-deleted" });
        if (outcome.message === USER_DELETED) return goTo("/account-deleted");
        return back(ctx, `We sent a confirmation link to ${current.user.email}. Your account is deleted when you follow it.`);
      },
    }),
    "resend-verification": intent({
      schema: z.object({}),
      rateLimitAs: "/send-verification-email",
      session: "required",
      run: async (_value, current, ctx) => {
        await requestVerificationEmail(ctx, { email: current.user.email });
        return back(ctx, `We sent a verification link to ${current.user.email}. Follow it to verify your address.`);
      },
    }),
    "revoke-session": intent({
      schema: z.object({ sessionId: z.string().optional() }),
      rateLimitAs: "/revoke-session",
      session: "required",
      refusalShown: "page",
      run: async (value, current, ctx) => {
        const id = value.sessionId ?? "";
        const revoked = await findOwnSession(current.user.id, id);
        await revokeSessionById(ctx, current, id);
        return back(ctx, revoked ? `Signed out ${describeDevice(revoked.userAgent)}.` : "That session had already ended.");
      },
    }),
    "revoke-other-sessions": intent({
      schema: z.object({}),
      rateLimitAs: "/revoke-other-sessions",
      session: "required",
      refusalShown: "page",
      run: async (_value, current, ctx) => {
        await revokeOtherSessions(ctx, current);
        return back(ctx, "Signed out of all other devices. This one stays signed in.");
      },
    }),
    // "This wasn't me — sign out everywhere" (/account/activity, after its confirmation step; ADR 048).
    "end-all-sessions": intent({
      schema: z.object({}),
      rateLimitAs: "/end-all-sessions",
      session: "required",
      refusalShown: "page",
      run: async (_value, current, ctx) => {
        const { resetLinkMailed } = await endAllSessions(ctx, current);
        return goTo(
          "/",
          resetLinkMailed
            ? `You are signed out everywhere, on this device too. We emailed ${current.user.email} a link to choose a new password: use it before you sign in again.`
            : "You are signed out everywhere, on this device too. Sign in again with a way only you have.",
        );
      },
    }),
    "sign-out": intent({
      schema: z.object({}),
      rateLimitAs: "/sign-out",
      session: "none",
      refusalShown: "page",
      run: async (_value, _current, ctx) => {
        await signOut(ctx);
        return goTo("/", "You are signed out.");
      },
    }),
  };
}

/** The `action` of every account page: the intents above, answered on the page that posted. */
export async function accountAction(args: { request: Request; context: AppLoadContext }) {
  return answerIntent(await pageAction(args, accountIntents(), { unknownRateLimitAs: "/revoke-session" }));
}
