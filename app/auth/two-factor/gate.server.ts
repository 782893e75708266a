// The one place a proven first factor (password by e-mail or username, an e-mailed code) becomes a session.
// A user with two-factor on gets an attempt cookie and `{twoFactorRedirect: true}` instead, unless this
// browser is a trusted device. Passkeys are a second factor in themselves and start sessions directly.
import type { RequestContext } from "~/auth/request-context.server";
import { startSession, type SessionWithUser } from "~/auth/session.server";
import { startAttempt } from "~/auth/two-factor/attempt.server";
import { isTrustedDevice } from "~/auth/two-factor/trusted-device.server";
import type { User } from "~/db.server";

/** Better Auth 1.7's answer: the second step is due, and the ways it can be given (backup codes always). */
export const TWO_FACTOR_REDIRECT = { twoFactorRedirect: true, twoFactorMethods: ["totp", "otp"] } as const;

export type FirstFactorOutcome = typeof TWO_FACTOR_REDIRECT | (SessionWithUser & { twoFactorRedirect?: undefined });

export async function afterFirstFactor(ctx: RequestContext, user: User, options: { rememberMe?: boolean } = {}): Promise<FirstFactorOutcome> {
  if (user.twoFactorEnabled && !(await isTrustedDevice(ctx, user.id))) {
    await startAttempt(ctx, user.id, options.rememberMe !== false);
    return TWO_FACTOR_REDIRECT;
  }
  return startSession(ctx, user, options);
}
