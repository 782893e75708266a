// Small, well-understood primitives on Node's crypto. Everything secret is compared in constant time.
import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { env } from "~/env.server";

const ALPHANUMERIC = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/** A random string of letters and digits, unbiased (randomInt rejects out-of-range draws). */
export function randomToken(length: number, alphabet = ALPHANUMERIC): string {
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[randomInt(alphabet.length)];
  return out;
}

/** Row ids, as Better Auth makes them: 32 letters and digits. */
export function newId(): string {
  return randomToken(32);
}

export function randomBase64Url(bytes: number): string {
  return randomBytes(bytes).toString("base64url");
}

export function sha256Hex(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export function hmacBase64Url(value: string, purpose: string): string {
  return createHmac("sha256", env.AUTH_SECRET).update(`${purpose}\0${value}`).digest("base64url");
}

/** Constant-time string equality that does not leak the length of either side. */
export function safeEqual(a: string, b: string): boolean {
  const left = createHash("sha256").update(a).digest();
  const right = createHash("sha256").update(b).digest();
  return timingSafeEqual(left, right) && a.length === b.length;
}

/** "value.signature": the signature binds the value to this server's secret and to a purpose. */
export function sign(value: string, purpose: string): string {
  return `${value}.${hmacBase64Url(value, purpose)}`;
}

/** The value if its signature is valid, else null. */
export function unsign(signed: string, purpose: string): string | null {
  const dot = signed.lastIndexOf(".");
  if (dot <= 0) return null;
  const value = signed.slice(0, dot);
  return safeEqual(signed.slice(dot + 1), hmacBase64Url(value, purpose)) ? value : null;
}

const encryptionKey = createHmac("sha256", env.AUTH_SECRET).update("latchkey encryption key").digest();

/** AES-256-GCM under a key derived from AUTH_SECRET: "iv.ciphertext.tag" in base64url. */
export function encrypt(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey, iv);
  const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [iv, body, cipher.getAuthTag()].map((part) => part.toString("base64url")).join(".");
}

/** The plaintext of `encrypt`'s output; throws if it was altered or made with another secret. */
export function decrypt(sealed: string): string {
  const [iv, body, tag] = sealed.split(".").map((part) => Buffer.from(part, "base64url"));
  if (!iv || !body || !tag) throw new Error("malformed ciphertext");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
}
