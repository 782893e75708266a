// Turning two-factor on and off for the signed-in user, and replacing the backup codes. Each asks for the
// password. Enabling stores a new secret and codes but switches two-factor on only when the first code from the
// app is verified (`confirmEnable`), so nobody locks themselves out with a secret their app never received. The
// e-mailed second factor is a choice of its own (`setTwoFactorOtp`), off until the user turns it on (ADR 027).
import { AuthError } from "~/auth/errors";
import { CREDENTIAL_PROVIDER, verifyAgainstDecoy, verifyPassword } from "~/auth/account/password.server";
import type { RequestContext } from "~/auth/request-context.server";
import { refreshCookieCache, type SessionWithUser } from "~/auth/session/sessions.server";
import { newBackupCodes, openBackupCodes, sealBackupCodes } from "~/auth/two-factor/backup-codes.server";
import { newEncryptedSecret, plainSecret, totpUri } from "~/auth/two-factor/totp.server";
import { forgetThisDevice } from "~/auth/two-factor/trusted-device.server";
import { recordSecurityEvent } from "~/auth/security-events/record.server";
import { checkPasswordWithLockout } from "~/auth/sign-in/password-lockout.server";
import { requireRecentVerificationBesidesPassword } from "~/auth/step-up/guard.server";
import { db } from "~/db.server";

/**
 * The password in the body confirms it's the person (ADR 059); with two-factor on the session must also be
 * recently verified, checked first so a refused request spends no guess. `action` is the API path.
 */
async function assertPassword(ctx: RequestContext, current: SessionWithUser, action: string, password: string): Promise<void> {
  await requireRecentVerificationBesidesPassword(ctx, current, action);
  const userId = current.user.id;
  const account = await db.account.findFirst({ where: { userId, providerId: CREDENTIAL_PROVIDER }, select: { password: true } });
  if (!account?.password) {
    await verifyAgainstDecoy(password);
    throw new AuthError("CREDENTIAL_ACCOUNT_NOT_FOUND");
  }
  const stored = account.password;
  // Counted in the account's bucket for this device, like a sign-in's password (issue 39 §1, ADR 057).
  const { right } = await checkPasswordWithLockout(ctx, { userId }, "two_factor_password", () => verifyPassword(password, stored));
  if (!right) throw new AuthError("INVALID_PASSWORD");
}

/** POST /two-factor/enable: a new secret and backup codes; on once the first code is verified. */
export async function enableTwoFactor(ctx: RequestContext, current: SessionWithUser, input: { password: string; issuer?: string }) {
  await assertPassword(ctx, current, "/two-factor/enable", input.password);
  const secret = newEncryptedSecret();
  const backupCodes = newBackupCodes();
  // Starting over starts the e-mailed second factor over too: off until chosen again.
  const data = { secret, backupCodes: sealBackupCodes(backupCodes), otpEnabled: false };
  const user = await db.$transaction(async (tx) => {
    const before = await tx.user.findUniqueOrThrow({ where: { id: current.user.id }, select: { twoFactorEnabled: true } });
    await tx.twoFactor.upsert({ where: { userId: current.user.id }, create: { userId: current.user.id, ...data }, update: data });
    // Setting up again starts over: the old secret stops counting until the new one is confirmed.
    const user = await tx.user.update({ where: { id: current.user.id }, data: { twoFactorEnabled: false } });
    // Two-factor that was on is off until the new secret is confirmed: the owner reads (and is mailed) that.
    if (before.twoFactorEnabled) await recordSecurityEvent(tx, { userId: user.id, type: "two_factor_disabled", ctx, sessionId: current.session.id, details: { settingUpAgain: true } });
    return user;
  });
  refreshCookieCache(ctx, { session: current.session, user });
  return { totpURI: totpUri(secret, current.user.email, input.issuer), backupCodes };
}

/** The secret and URI of the setup in progress or in use (for showing the QR code again). */
export async function currentTotpUri(userId: string, accountName: string): Promise<{ totpURI: string; secret: string } | null> {
  const row = await db.twoFactor.findUnique({ where: { userId } });
  if (!row) return null;
  return { totpURI: totpUri(row.secret, accountName), secret: row.secret };
}

/** The two-factor state the account page shows: off, set up but awaiting its first code, or on. */
export async function twoFactorStatus(userId: string, accountName: string) {
  const row = await db.twoFactor.findUnique({ where: { userId }, include: { user: { select: { twoFactorEnabled: true } } } });
  if (!row) return { enabled: false, pending: null };
  if (row.user.twoFactorEnabled) return { enabled: true, pending: null, backupCodesLeft: openBackupCodes(row.backupCodes).length, otpEnabled: row.otpEnabled };
  const uri = totpUri(row.secret, accountName);
  return { enabled: false, pending: { totpURI: uri, secret: plainSecret(row.secret), qrCode: await qrCodeImage(uri) } };
}

/** The current backup codes, for showing them right after two-factor was switched on. */
export async function currentBackupCodes(userId: string): Promise<string[]> {
  const row = await db.twoFactor.findUnique({ where: { userId }, select: { backupCodes: true } });
  return row ? openBackupCodes(row.backupCodes) : [];
}

/** POST /two-factor/get-totp-uri. */
export async function getTotpUri(ctx: RequestContext, current: SessionWithUser, input: { password: string }) {
  await assertPassword(ctx, current, "/two-factor/get-totp-uri", input.password);
  const found = await currentTotpUri(current.user.id, current.user.email);
  if (!found) throw new AuthError("TOTP_NOT_ENABLED");
  return { totpURI: found.totpURI };
}

/** The first verified code switches two-factor on. */
export async function confirmEnable(ctx: RequestContext, current: SessionWithUser) {
  const user = await db.$transaction(async (tx) => {
    const { count } = await tx.user.updateMany({ where: { id: current.user.id, twoFactorEnabled: false }, data: { twoFactorEnabled: true } });
    if (count > 0) await recordSecurityEvent(tx, { userId: current.user.id, type: "two_factor_enabled", ctx, sessionId: current.session.id });
    return tx.user.findUniqueOrThrow({ where: { id: current.user.id } });
  });
  refreshCookieCache(ctx, { session: current.session, user });
  return user;
}

/** POST /two-factor/disable: the secret and backup codes are deleted, trusted devices with them. */
export async function disableTwoFactor(ctx: RequestContext, current: SessionWithUser, input: { password: string }) {
  await assertPassword(ctx, current, "/two-factor/disable", input.password);
  const user = await db.$transaction(async (tx) => {
    const { count } = await tx.twoFactor.deleteMany({ where: { userId: current.user.id } });
    const before = await tx.user.findUniqueOrThrow({ where: { id: current.user.id }, select: { twoFactorEnabled: true } });
    const user = await tx.user.update({ where: { id: current.user.id }, data: { twoFactorEnabled: false } });
    // Only a change is recorded: turning off what was never set up is no event.
    if (before.twoFactorEnabled || count > 0) await recordSecurityEvent(tx, { userId: user.id, type: "two_factor_disabled", ctx, sessionId: current.session.id });
    return user;
  });
  forgetThisDevice(ctx);
  refreshCookieCache(ctx, { session: current.session, user });
  return { status: true };
}

/**
 * POST /two-factor/set-otp {password, enabled}: whether sign-ins may offer a code by e-mail as the second factor.
 * Needs two-factor on. Even when chosen, it is offered only after a first factor that did not rest on the inbox
 * (app/auth/sign-in/first-factor.server.ts).
 */
export async function setTwoFactorOtp(ctx: RequestContext, current: SessionWithUser, input: { password: string; enabled: boolean }) {
  await assertPassword(ctx, current, "/two-factor/set-otp", input.password);
  const { count } = await db.twoFactor.updateMany({
    where: { userId: current.user.id, user: { twoFactorEnabled: true } },
    data: { otpEnabled: input.enabled },
  });
  if (count === 0) throw new AuthError("TWO_FACTOR_ISNT_ENABLED");
  return { status: true };
}

/** POST /two-factor/generate-backup-codes: ten new codes replace the old ones. */
export async function generateBackupCodes(ctx: RequestContext, current: SessionWithUser, input: { password: string }) {
  await assertPassword(ctx, current, "/two-factor/generate-backup-codes", input.password);
  const backupCodes = newBackupCodes();
  await db.$transaction(async (tx) => {
    const { count } = await tx.twoFactor.updateMany({
      where: { userId: current.user.id, user: { twoFactorEnabled: true } },
      data: { backupCodes: sealBackupCodes(backupCodes) },
    });
    if (count === 0) throw new AuthError("TWO_FACTOR_ISNT_ENABLED");
    await recordSecurityEvent(tx, { userId: current.user.id, type: "backup_codes_generated", ctx, sessionId: current.session.id });
  });
  return { status: true, backupCodes };
}

/** qrcode is loaded the first time a set-up page needs a picture (docs/decisions/026-load-what-is-used.md). */
async function qrCodeImage(uri: string): Promise<string> {
  const { default: QRCode } = await import("qrcode");
  return QRCode.toDataURL(uri, { margin: 1, width: 240 });
}
