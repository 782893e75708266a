// The trusted-device cookie (spec §9: 30 days): after a second factor with trustDevice, this browser skips the
// second factor for this user. It is signed and carries a fingerprint of the user's TOTP secret and password
// hash, so it stops working by itself when two-factor is disabled (or set up again) or the password changes,
// with nothing to look up or revoke. Each use renews it for another 30 days.
import { hmacBase64Url, safeEqual, sign, unsign } from "~/auth/core/crypto.server";
import { CREDENTIAL_PROVIDER } from "~/auth/account/password.server";
import type { RequestContext } from "~/auth/request-context.server";
import { cookieName, requestCookies, setCookie } from "~/auth/core/cookies.server";
import { TRUST_DEVICE_SECONDS } from "~/auth/two-factor/constants";
import { lastEndedByOwner } from "~/auth/security-events/events.server";
import { db } from "~/db.server";

export const TRUST_DEVICE_COOKIE = cookieName("trust_device");
const PURPOSE = "trust_device";

async function fingerprint(userId: string): Promise<string | null> {
  const [twoFactor, account, endedByOwner] = await Promise.all([
    db.twoFactor.findUnique({ where: { userId }, select: { secret: true, user: { select: { inboxProvenAt: true } } } }),
    db.account.findFirst({ where: { userId, providerId: CREDENTIAL_PROVIDER }, select: { password: true } }),
    lastEndedByOwner(userId),
  ]);
  if (!twoFactor) return null;
  // A device trusted before the account's inbox was first proven never counts after it (ADR 028's claim), even
  // should the same secret and password hash come back; for proven accounts the fingerprint is as it was.
  const unproven = twoFactor.user.inboxProvenAt === null ? "\0unproven" : "";
  // "This wasn't me" forgets every trusted device: one trusted before it no longer matches (ADR 048). The event
  // is kept at least 30 days (AUTH_SECURITY_EVENT_DAYS' minimum) and a cookie minted before it expires within
  // 30 days (renewed only while it matches), so deleting the event by age brings no old cookie back.
  const ended = endedByOwner ? `\0ended:${endedByOwner}` : "";
  return hmacBase64Url(`${userId}\0${twoFactor.secret}\0${account?.password ?? ""}${unproven}${ended}`, "trusted-device");
}

export async function trustThisDevice(ctx: RequestContext, userId: string): Promise<void> {
  const print = await fingerprint(userId);
  if (!print) return;
  const expires = Math.floor(Date.now() / 1000) + TRUST_DEVICE_SECONDS;
  setCookie(ctx, TRUST_DEVICE_COOKIE, sign(`${userId}.${expires}.${print}`, PURPOSE), TRUST_DEVICE_SECONDS);
}

/** Whether this browser is trusted for `userId`; if so, the cookie is renewed. */
export async function isTrustedDevice(ctx: RequestContext, userId: string): Promise<boolean> {
  const signed = requestCookies(ctx.request)[TRUST_DEVICE_COOKIE];
  const value = signed ? unsign(signed, PURPOSE) : null;
  if (!value) return false;
  const [cookieUser, expires, print] = value.split(".");
  if (cookieUser !== userId || !(Number(expires) * 1000 > Date.now()) || !print) return false;
  const current = await fingerprint(userId);
  if (!current || !safeEqual(current, print)) return false;
  await trustThisDevice(ctx, userId);
  return true;
}

export function forgetThisDevice(ctx: RequestContext): void {
  if (requestCookies(ctx.request)[TRUST_DEVICE_COOKIE]) setCookie(ctx, TRUST_DEVICE_COOKIE, "", 0);
}
