// RFC 6238 time-based codes with otpauth: the secret, the otpauth:// URI an app scans, and the check that
// accepts a code once, with one 30-second step of clock drift either way.
import { Secret, TOTP as Totp } from "otpauth";
import { decrypt, encrypt } from "~/auth/core/crypto.server";
import { normalizeTypedCode } from "~/auth/core/typed-code";
import { claimOnce } from "~/auth/verification.server";
import { TOTP } from "~/auth/two-factor/constants";

export const DEFAULT_ISSUER = "Latchkey";

/** A new secret (160 bits, RFC 4226's recommended length), already encrypted for storage. */
export function newEncryptedSecret(): string {
  return encrypt(new Secret({ size: 20 }).base32);
}

function totpFor(encryptedSecret: string, label = "", issuer = DEFAULT_ISSUER): Totp {
  return new Totp({
    issuer,
    label,
    algorithm: "SHA1",
    digits: TOTP.digits,
    period: TOTP.period,
    secret: Secret.fromBase32(decrypt(encryptedSecret)),
  });
}

export function totpUri(encryptedSecret: string, accountName: string, issuer?: string): string {
  return totpFor(encryptedSecret, accountName, issuer || DEFAULT_ISSUER).toString();
}

/** The base32 secret, for typing into an app by hand. */
export function plainSecret(encryptedSecret: string): string {
  return decrypt(encryptedSecret);
}

/**
 * Whether `code` is the user's current code (± one step). A code's time step is claimed in the verification
 * table, so the same code cannot be used twice, even by two requests at once.
 */
export async function checkTotp(userId: string, encryptedSecret: string, code: string): Promise<boolean> {
  const token = normalizeTypedCode(code);
  if (!/^\d{6}$/.test(token)) return false;
  const now = Date.now();
  const delta = totpFor(encryptedSecret).validate({ token, timestamp: now, window: TOTP.window });
  if (delta === null) return false;
  const step = Math.floor(now / 1000 / TOTP.period) + delta;
  // Kept past the last moment the step's code is accepted (one more step of drift).
  // Per secret: setting two-factor up again starts with no steps used.
  return claimOnce("totp-used", `${userId}:${encryptedSecret}:${step}`, TOTP.period * (TOTP.window * 2 + 2));
}
