// The one verification-token mechanism for every e-mailed link (docs/decisions/005-verification-tokens.md).
// Each token is a row in the verification table, stored only as a SHA-256 hash under "<purpose>:<hash>":
// random (reset-password, delete-account) or an HS256-signed JWT whose jti is the row (e-mail verification and
// change, as the specification has it). Either way a token is single-use — consuming deletes its row in one
// statement, so of two concurrent requests exactly one wins — and it expires.
import { createHmac } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { randomToken, sha256Hex } from "~/auth/crypto.server";
import { AuthError } from "~/auth/errors";
import { db, isRecordNotFound } from "~/db.server";
import { sendMail, type MailMessage } from "~/email/mailer.server";
import { env } from "~/env.server";

export type TokenPurpose =
  | "email-verification"
  | "change-email"
  | "reset-password"
  | "delete-account"
  | "invitation"
  | "passkey-challenge"
  | "passkey-sign-up";

/**
 * Every token names its user, so a user's outstanding tokens can be revoked together; null only before there is
 * a user (a passkey sign-in challenge, the code that proves an inbox before a passkey-only sign-up).
 */
export interface TokenPayload {
  userId: string | null;
}

const jwtKey = createHmac("sha256", env.AUTH_SECRET).update("latchkey verification jwt").digest();

/** `bindTo`: a second secret the holder must also present (a browser's cookie), so a short code is not enough. */
const identifierFor = (purpose: TokenPurpose, secret: string, bindTo?: string) =>
  `${purpose}:${sha256Hex(bindTo === undefined ? secret : `${bindTo}\0${secret}`)}`;

interface IssueOptions {
  ttlSeconds: number;
  /** Random tokens: how many letters and digits (spec §9: reset 24, delete 32). */
  length?: number;
  /** Issue an HS256 JWT carrying the payload instead of a random string. */
  signed?: boolean;
  /** Random tokens: the characters to draw from (a code people type avoids look-alikes). */
  alphabet?: string;
  /** Random tokens: only valid together with this second secret (see identifierFor). */
  bindTo?: string;
}

export async function issueToken<P extends TokenPayload>(purpose: TokenPurpose, payload: P, options: IssueOptions): Promise<string> {
  const expiresAt = new Date(Date.now() + options.ttlSeconds * 1000);
  let token: string;
  let rowSecret: string;
  if (options.signed) {
    rowSecret = randomToken(32);
    token = await new SignJWT({ ...(payload as object), purpose })
      .setProtectedHeader({ alg: "HS256" })
      .setJti(rowSecret)
      .setIssuedAt()
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(jwtKey);
  } else {
    token = randomToken(options.length ?? 32, options.alphabet);
    rowSecret = token;
  }
  try {
    await db.verification.create({
      data: { identifier: identifierFor(purpose, rowSecret, options.signed ? undefined : options.bindTo), value: JSON.stringify(payload), expiresAt },
    });
  } catch (error) {
    console.error("[latchkey] could not store a verification token:", (error as Error).message);
    throw new AuthError("UNABLE_TO_CREATE_VERIFICATION");
  }
  return token;
}

export type SignedPayload<P> = P & { jti: string; purpose: TokenPurpose };

/**
 * Issues a token and mails its link now. If the mail cannot be sent, exactly that token is withdrawn (earlier
 * links already delivered keep working) and FAILED_TO_SEND_EMAIL reaches the caller: no usable link is left
 * behind that nobody received.
 */
export async function mailToken<P extends TokenPayload>(
  purpose: TokenPurpose,
  payload: P,
  options: IssueOptions,
  compose: (token: string) => MailMessage,
): Promise<void> {
  const token = await issueToken(purpose, payload, options);
  try {
    await sendMail(compose(token));
  } catch (error) {
    await consumeToken(purpose, token, { signed: options.signed, bindTo: options.bindTo }).catch(() => {});
    throw error;
  }
}

/**
 * Runs work that must not change an answer or its timing (whether an address has an account decides whether a
 * mail goes out) after the current request has been answered. Failures are logged, never thrown.
 */
export function afterResponse(work: () => Promise<unknown>): void {
  setImmediate(() => {
    work().catch((error) => {
      if (!(error instanceof AuthError)) console.error("[latchkey] background work failed:", error);
    });
  });
}

/** Checks a signed token's signature, purpose and expiry without using it up. */
export async function readSignedToken<P extends TokenPayload>(purposes: TokenPurpose[], token: string): Promise<SignedPayload<P>> {
  try {
    if (!token || token.length > 4096) throw new AuthError("INVALID_TOKEN");
    const { payload } = await jwtVerify(token, jwtKey, { algorithms: ["HS256"] });
    if (!purposes.includes(payload.purpose as TokenPurpose) || typeof payload.jti !== "string") {
      throw new AuthError("INVALID_TOKEN");
    }
    return payload as unknown as SignedPayload<P>;
  } catch (error) {
    if (error instanceof AuthError) throw error;
    if (error instanceof joseErrors.JWTExpired) throw new AuthError("TOKEN_EXPIRED");
    throw new AuthError("INVALID_TOKEN");
  }
}

/** Uses a token up and returns its payload; INVALID_TOKEN if unknown or used, TOKEN_EXPIRED if too old. */
export async function consumeToken<P extends TokenPayload>(
  purpose: TokenPurpose,
  token: string,
  options: { signed?: boolean; bindTo?: string } = {},
): Promise<P> {
  if (!token || token.length > 4096) throw new AuthError("INVALID_TOKEN");
  const rowSecret = options.signed ? (await readSignedToken([purpose], token)).jti : token;
  let row;
  try {
    row = await db.verification.delete({ where: { identifier: identifierFor(purpose, rowSecret, options.signed ? undefined : options.bindTo) } });
  } catch (error) {
    if (isRecordNotFound(error)) throw new AuthError("INVALID_TOKEN");
    throw error;
  }
  if (row.expiresAt.getTime() <= Date.now()) throw new AuthError("TOKEN_EXPIRED");
  return JSON.parse(row.value) as P;
}

/** A random token's payload if it is still usable, without using it up (for "is this link still good?"). */
export async function peekToken<P extends TokenPayload>(purpose: TokenPurpose, token: string, options: { bindTo?: string } = {}): Promise<P | null> {
  if (!token || token.length > 4096) return null;
  const row = await db.verification.findUnique({ where: { identifier: identifierFor(purpose, token, options.bindTo) } });
  return row && row.expiresAt.getTime() > Date.now() ? (JSON.parse(row.value) as P) : null;
}

/** Revokes every outstanding token of one purpose for a user (e.g. older reset links after a reset). */
export async function revokeTokens(purpose: TokenPurpose, userId: string): Promise<void> {
  await db.verification.deleteMany({
    where: { identifier: { startsWith: `${purpose}:` }, value: { contains: `"userId":${JSON.stringify(userId)}` } },
  });
}

/** Purposes whose tokens were mailed to the user's own address (an invitation's secret went to the invitee). */
const MAILED_TO_THE_USER: TokenPurpose[] = ["email-verification", "change-email", "reset-password", "delete-account"];

/**
 * Ends every outstanding link and code mailed to a user: after the account's e-mail address changes, nothing
 * sent to the old address may still act on the account.
 */
export async function revokeAllTokensOf(userId: string): Promise<void> {
  await db.verification.deleteMany({
    where: {
      OR: MAILED_TO_THE_USER.map((purpose) => ({ identifier: { startsWith: `${purpose}:` } })),
      value: { contains: `"userId":${JSON.stringify(userId)}` },
    },
  });
}

/** Revokes every outstanding token of one purpose whose payload has `field` equal to `value`. */
export async function revokeTokensWhere(purpose: TokenPurpose, field: string, value: string): Promise<void> {
  await db.verification.deleteMany({
    where: { identifier: { startsWith: `${purpose}:` }, value: { contains: `${JSON.stringify(field)}:${JSON.stringify(value)}` } },
  });
}

export async function deleteExpiredTokens(): Promise<void> {
  await db.verification.deleteMany({ where: { expiresAt: { lt: new Date() } } });
}
