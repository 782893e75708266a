// POST /change-email. An unverified address is simply replaced; a verified one must confirm the change from
// the current inbox first, then the new address is set unverified and asked to verify itself (spec §4).
import { normalizeEmail } from "~/auth/core/email-address";
import {
  emailVerificationEnabled,
  replaceEmail,
  sendVerificationInBackground,
  verifyEmailLink,
  type ChangeEmailPayload,
} from "~/auth/account/email-verification.server";
import { AuthError } from "~/auth/errors";
import type { RequestContext } from "~/auth/request-context.server";
import { refreshCookieCache, type SessionWithUser } from "~/auth/session/sessions.server";
import { liveTokenPayloads, mailToken } from "~/auth/verification.server";
import { requireRecentVerification } from "~/auth/step-up/guard.server";
import { db } from "~/db.server";
import { emails } from "~/email/templates.server";
import { env } from "~/env.server";

export async function changeEmail(
  ctx: RequestContext,
  current: SessionWithUser,
  input: { newEmail: string; callbackURL?: string },
): Promise<{ status: true; pendingConfirmation: boolean }> {
  if (env.AUTH_CHANGE_EMAIL === "off") throw new AuthError("CHANGE_EMAIL_IS_DISABLED");
  // Where the account's mail goes decides who can reset its password: not for a stolen cookie alone (ADR 059).
  await requireRecentVerification(ctx, current, "/change-email");
  const newEmail = normalizeEmail(input.newEmail);
  if (newEmail === current.user.email) throw new AuthError("EMAIL_IS_THE_SAME");
  if (await db.user.findUnique({ where: { email: newEmail }, select: { id: true } })) {
    throw new AuthError("COULDNT_UPDATE_YOUR_EMAIL");
  }

  if (!current.user.emailVerified) {
    const user = await replaceEmail(ctx, current.user.id, current.user.email, newEmail, { verified: false });
    refreshCookieCache(ctx, { session: current.session, user });
    if (emailVerificationEnabled()) sendVerificationInBackground(user, input.callbackURL);
    return { status: true, pendingConfirmation: false };
  }

  const ttl = env.AUTH_EMAIL_VERIFICATION_TTL;
  const payload: ChangeEmailPayload = { userId: current.user.id, email: current.user.email, newEmail };
  await mailToken("change-email", payload, { ttlSeconds: ttl, signed: true }, (token) =>
    emails.confirmEmailChange(current.user.email, newEmail, verifyEmailLink(token, input.callbackURL), ttl),
  );
  return { status: true, pendingConfirmation: true };
}

/**
 * The change of address waiting for its confirmation from the current inbox, if any (the newest asked for): the
 * profile shows it, so nobody wonders why the address has not changed yet.
 */
export async function pendingEmailChange(current: SessionWithUser): Promise<string | null> {
  const pending = await liveTokenPayloads<ChangeEmailPayload>("change-email", current.user.id);
  return pending.find((p) => p.email === current.user.email && p.newEmail !== current.user.email)?.newEmail ?? null;
}
