// Backup codes: 10 of "XXXXX-XXXXX" in one case without look-alikes, kept encrypted as one JSON list in the
// twoFactor row; each works once. Typed codes are read without case, spaces or dashes (ADR 037).
import { decrypt, encrypt, randomToken, safeEqual } from "~/auth/core/crypto.server";
import { CODE_ALPHABET, normalizeTypedCode } from "~/auth/core/typed-code";
import { BACKUP_CODE_COUNT, BACKUP_CODE_HALF } from "~/auth/two-factor/constants";
import { db } from "~/db.server";

/** 10 codes, each two groups of 5 from CODE_ALPHABET joined by a dash: 50 bits a code. */
export function newBackupCodes(): string[] {
  const half = () => randomToken(BACKUP_CODE_HALF, CODE_ALPHABET);
  return Array.from({ length: BACKUP_CODE_COUNT }, () => `${half()}-${half()}`);
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
 * Uses one backup code up. Every stored code is compared (constant time each), both sides normalised: codes
 * made before ADR 037 (mixed case, 62 symbols) are then matched without case too, which leaves them 36^10
 * (51 bits), more than a new code's 50. The list is rewritten only if it is still the one that was read, so a
 * code used twice at once works once.
 */
export async function consumeBackupCode(userId: string, typed: string): Promise<boolean> {
  const code = normalizeTypedCode(typed);
  if (!code) return false;
  for (let round = 0; round < 10; round++) {
    const row = await db.twoFactor.findUnique({ where: { userId } });
    if (!row) return false;
    const codes = openBackupCodes(row.backupCodes);
    let index = -1;
    codes.forEach((candidate, i) => {
      if (safeEqual(normalizeTypedCode(candidate), code) && index === -1) index = i;
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
