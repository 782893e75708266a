// The step-up guard (issue 39 §4, docs/decisions/059-step-up-confirm-its-you.md): what a stolen session cookie
// must not do alone — change where the account's mail goes, its second factor, the other sessions, delete it
// without a password, act as an administrator, add a way in (ADR 030) — needs the session recently verified.
// The refusal names the ways this account can confirm it's them now, and is recorded.
import { AuthError } from "~/auth/errors";
import type { RequestContext } from "~/auth/request-context.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import type { SessionWithUser } from "~/auth/session/sessions.server";
import { recentlyVerified } from "~/auth/step-up/recently-verified.server";
import { CREDENTIAL_PROVIDER } from "~/auth/account/password.server";
import { afterResponse } from "~/background-work.server";
import { db, type User } from "~/db.server";

export type ReverifyMethod = "password" | "passkey" | "totp" | "otp";

/**
 * The ways this account can confirm it's them now, in a fixed order. With two-factor on, only what is both
 * factors at once: TOTP (the session already rests on the first) or a passkey that verifies the person; without
 * it, a password, a passkey, or a code mailed to a verified address.
 */
export async function reverifyMethodsOf(user: Pick<User, "id" | "twoFactorEnabled" | "emailVerified">): Promise<ReverifyMethod[]> {
  const found = await db.user.findUnique({
    where: { id: user.id },
    select: {
      twoFactorEnabled: true,
      emailVerified: true,
      accounts: { where: { providerId: CREDENTIAL_PROVIDER, password: { not: null } }, select: { id: true }, take: 1 },
      passkeys: { select: { id: true }, take: 1 },
      twoFactor: { select: { id: true } },
    },
  });
  if (!found) return [];
  const hasPasskey = found.passkeys.length > 0;
  if (found.twoFactorEnabled) return [...(hasPasskey ? (["passkey"] as const) : []), ...(found.twoFactor ? (["totp"] as const) : [])];
  return [
    ...(found.accounts.length > 0 ? (["password"] as const) : []),
    ...(hasPasskey ? (["passkey"] as const) : []),
    ...(found.emailVerified ? (["otp"] as const) : []),
  ];
}

type Refusal = "SESSION_IS_NOT_FRESH" | "SESSION_EXPIRED_REAUTHENTICATE_TO_PERFORM_THIS_ACTION";

/**
 * Refuses (403 SESSION_IS_NOT_FRESH with `reverifyMethods`, or delete-user's 400) unless this session signed in
 * or confirmed it's them within the window; the refusal is recorded as `sensitive_action_refused` naming
 * `action`, the API path of what was asked (the pages name their JSON twin's).
 */
export async function requireRecentVerification(
  ctx: RequestContext,
  current: SessionWithUser,
  action: string,
  refusal: Refusal = "SESSION_IS_NOT_FRESH",
): Promise<void> {
  if (recentlyVerified(current.session)) return;
  const reverifyMethods = await reverifyMethodsOf(current.user);
  const { id: sessionId, userId } = current.session;
  afterResponse(() =>
    recordSecurityEvent(db, { userId, type: "sensitive_action_refused", ctx, sessionId, details: { action, reason: "not_recently_verified" } }),
  );
  throw new AuthError(refusal, { extra: { reverifyMethods } });
}

/**
 * For a route that checks the password in its body (the `/two-factor/*` settings, delete-user): the password is
 * the confirmation, unless two-factor is on — then a password alone is one factor, and the session must also be
 * recently verified. Called before the password is compared, so a refused request spends no guess.
 */
export async function requireRecentVerificationBesidesPassword(
  ctx: RequestContext,
  current: SessionWithUser,
  action: string,
  refusal?: Refusal,
): Promise<void> {
  if (current.user.twoFactorEnabled) await requireRecentVerification(ctx, current, action, refusal);
}
