// Backup codes: 10 of "xxxxx-xxxxx", kept encrypted as one JSON list in the twoFactor row; each works once.
import { decrypt, encrypt, randomToken, safeEqual } from "~/auth/core/crypto.server";
import { BACKUP_CODE_COUNT, BACKUP_CODE_HALF } from "~/auth/two-factor/constants";
import { db } from "~/db.server";

export function newBackupCodes(): string[] {
  return Array.from({ length: BACKUP_CODE_COUNT }, () => `${randomToken(BACKUP_CODE_HALF)}-${randomToken(BACKUP_CODE_HALF)}`);
}

export function sealBackupCodes(codes: string[]): string {
  return encrypt(JSON.stringify(codes));
}

export function openBackupCodes(sealed: string): string[] {
  try {
    const codes = JSON.parse(decrypt(sealed));
    return Array.isArray(codes) ? codes.filter((code): code is string => typeof code === "string") : [];
  } catch {
    return [];
  }
}

/**
 * Uses one backup code up. Every stored code is compared (constant time each); the list is rewritten only if it
 * is still the one that was read, so a code used twice at once works once.
 */
export async function consumeBackupCode(userId: string, typed: string): Promise<boolean> {
  const code = typed.trim();
  for (let round = 0; round < 10; round++) {
    const row = await db.twoFactor.findUnique({ where: { userId } });
    if (!row) return false;
    const codes = openBackupCodes(row.backupCodes);
    let index = -1;
    codes.forEach((candidate, i) => {
      if (safeEqual(candidate, code) && index === -1) index = i;
    });
    if (index === -1) return false;
    const remaining = codes.filter((_, i) => i !== index);
    const { count } = await db.twoFactor.updateMany({
      where: { userId, backupCodes: row.backupCodes },
      data: { backupCodes: sealBackupCodes(remaining) },
    });
    if (count === 1) return true;
  }
  return false;
}
