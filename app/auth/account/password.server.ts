// Password hashing: scrypt N=16384, r=16, p=1, 64-byte key, 16-byte random salt (spec §9), stored as
// "salt:key" in hex. Node's native scrypt runs on the libuv thread pool, so hashing never blocks the event loop.
import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import { AuthError } from "~/auth/errors";
import { passwordHasher, type HasherLane } from "~/auth/sign-in/hasher-queue.server";
import { env } from "~/env.server";

/** The `providerId` of password accounts (an account row with a password hash). */
export const CREDENTIAL_PROVIDER = "credential";

const SCRYPT = { N: 16384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const KEY_LENGTH = 64;

/**
 * Test suites only (AUTH_TEST_PASSWORD_HASHING=fast, accepted only with NODE_ENV=test; ADR 032): ~1 ms instead of
 * ~145 ms. Such hashes carry FAST_PREFIX, and a server not in that mode refuses them outright, so a cheap hash
 * can never sign anyone in to a real deployment, even if a test database were pointed at one.
 */
const TEST_ONLY_SCRYPT = { N: 1024, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;
const FAST_PREFIX = "test-only$";
const fastHashing = () => env.AUTH_TEST_PASSWORD_HASHING === "fast";

function deriveKey(password: string, saltHex: string, cost: typeof SCRYPT | typeof TEST_ONLY_SCRYPT): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // NFKC so the same password typed on different keyboards/platforms hashes the same.
    scrypt(password.normalize("NFKC"), saltHex, KEY_LENGTH, cost, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/**
 * A new password's hash, through the hasher's queue (ADR 061): `lane` is "stranger" where anyone may ask for it
 * (sign-up, a reset by code not yet checked), which is refused at once (429) when the hasher is saturated;
 * "owner" where the caller has proven itself (a session, a reset link, an administrator).
 */
export function hashPassword(password: string, lane: HasherLane = "owner"): Promise<string> {
  return passwordHasher().run(lane, () => deriveHash(password));
}

/** The hash itself, outside the queue: for the decoy, which is made inside a comparison's own turn. */
async function deriveHash(password: string): Promise<string> {
  const salt = randomBytes(16).toString("hex");
  if (fastHashing()) return `${FAST_PREFIX}${salt}:${(await deriveKey(password, salt, TEST_ONLY_SCRYPT)).toString("hex")}`;
  const key = await deriveKey(password, salt, SCRYPT);
  return `${salt}:${key.toString("hex")}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const fast = stored.startsWith(FAST_PREFIX);
  if (fast && !fastHashing()) return false;
  const [salt, keyHex] = (fast ? stored.slice(FAST_PREFIX.length) : stored).split(":");
  if (!salt || !keyHex || keyHex.length !== KEY_LENGTH * 2) return false;
  const key = await deriveKey(password, salt, fast ? TEST_ONLY_SCRYPT : SCRYPT);
  return timingSafeEqual(key, Buffer.from(keyHex, "hex"));
}

let decoyHash: Promise<string> | undefined;
/**
 * Burns the same scrypt work as a real check when there is no account to check against, so the answer's
 * timing does not tell whether an e-mail address is registered.
 */
export async function verifyAgainstDecoy(password: string): Promise<false> {
  decoyHash ??= deriveHash(randomBytes(16).toString("hex"));
  await verifyPassword(password, await decoyHash);
  return false;
}

/** Password bounds from configuration (defaults 8 and 128). */
export function assertPasswordLength(password: string): void {
  if (password.length < env.PASSWORD_MIN_LENGTH) throw new AuthError("PASSWORD_TOO_SHORT");
  if (password.length > env.PASSWORD_MAX_LENGTH) throw new AuthError("PASSWORD_TOO_LONG");
}

/** The configured bounds, for forms that check them in the browser too. */
export function passwordBounds(): { min: number; max: number } {
  return { min: env.PASSWORD_MIN_LENGTH, max: env.PASSWORD_MAX_LENGTH };
}
