// The one verification-token mechanism for every e-mailed link (docs/decisions/005-verification-tokens.md).
// Each token is a row in the verification table, stored only as a SHA-256 hash under "<purpose>:<hash>":
// random (reset-password, delete-account) or an HS256-signed JWT whose jti is the row (e-mail verification and
// change, as the specification has it). Either way a token is single-use — consuming deletes its row in one
// statement, so of two concurrent requests exactly one wins — and it expires.
import { createHmac } from "node:crypto";
import { errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { hmacBase64Url, randomToken, safeEqual, sha256Hex } from "~/auth/core/crypto.server";
import { normalizeTypedCode } from "~/auth/core/typed-code";
import { AuthError } from "~/auth/errors";
import { db, isRecordNotFound, isUniqueViolation } from "~/db.server";
import { sendMail, type MailDraft } from "~/email/mailer.server";
import { env } from "~/env.server";

export type TokenPurpose =
  | "email-verification"
  | "change-email"
  | "reset-password"
  | "delete-account"
  | "invitation"
  | "passkey-challenge"
  | "oauth-state";

/**
 * Every token names its user, so a user's outstanding tokens can be revoked together; null only before there is
 * a user (a passkey sign-in challenge, the code that proves an inbox before a passkey-only sign-up).
 */
export interface TokenPayload {
  userId: string | null;
}

const jwtKey = createHmac("sha256", env.AUTH_SECRET).update("latchkey verification jwt").digest();

const identifierFor = (purpose: TokenPurpose | EntryPurpose, secret: string) => `${purpose}:${sha256Hex(secret)}`;

interface IssueOptions {
  ttlSeconds: number;
  /** Random tokens: how many letters and digits (spec §9: reset 24, delete 32). */
  length?: number;
  /** Issue an HS256 JWT carrying the payload instead of a random string. */
  signed?: boolean;
  /** Random tokens: the characters to draw from (a code people type avoids look-alikes). */
  alphabet?: string;
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
      data: { identifier: identifierFor(purpose, rowSecret), value: JSON.stringify(payload), expiresAt },
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
  compose: (token: string) => MailDraft,
  sending: { securityNotice?: boolean } = {},
): Promise<void> {
  const token = await issueToken(purpose, payload, options);
  try {
    await sendMail(compose(token), sending);
  } catch (error) {
    await consumeToken(purpose, token, { signed: options.signed }).catch(() => {});
    throw error;
  }
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
  options: { signed?: boolean } = {},
): Promise<P> {
  if (!token || token.length > 4096) throw new AuthError("INVALID_TOKEN");
  const rowSecret = options.signed ? (await readSignedToken([purpose], token)).jti : token;
  let row;
  try {
    row = await db.verification.delete({ where: { identifier: identifierFor(purpose, rowSecret) } });
  } catch (error) {
    if (isRecordNotFound(error)) throw new AuthError("INVALID_TOKEN");
    throw error;
  }
  if (row.expiresAt.getTime() <= Date.now()) throw new AuthError("TOKEN_EXPIRED");
  return JSON.parse(row.value) as P;
}

/** A random token's payload if it is still usable, without using it up (for "is this link still good?"). */
export async function peekToken<P extends TokenPayload>(purpose: TokenPurpose, token: string): Promise<P | null> {
  if (!token || token.length > 4096) return null;
  const row = await db.verification.findUnique({ where: { identifier: identifierFor(purpose, token) } });
  return row && row.expiresAt.getTime() > Date.now() ? (JSON.parse(row.value) as P) : null;
}

/** Revokes every outstanding token of one purpose for a user (e.g. older reset links after a reset). */
export async function revokeTokens(purpose: TokenPurpose, userId: string): Promise<void> {
  await db.verification.deleteMany({
    where: { identifier: { startsWith: `${purpose}:` }, value: { contains: `"userId":${JSON.stringify(userId)}` } },
  });
}

/** The payloads of a user's live tokens of one purpose, newest first (e.g. a pending change to show). */
export async function liveTokenPayloads<P extends TokenPayload>(purpose: TokenPurpose, userId: string): Promise<P[]> {
  const rows = await db.verification.findMany({
    where: { identifier: { startsWith: `${purpose}:` }, value: { contains: `"userId":${JSON.stringify(userId)}` }, expiresAt: { gt: new Date() } },
    orderBy: { createdAt: "desc" },
    select: { value: true },
  });
  return rows.map((row) => JSON.parse(row.value) as P);
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

// ---------------------------------------------------------------------------------------------------------
// Keyed entries: short-lived state that a secret key (a sign-in attempt's id, an e-mail address) finds, such as
// a two-factor attempt or a one-time code sent by e-mail. Same table and rules as above: the key is stored only
// hashed, rows expire, and every change is one conditional statement so concurrent requests cannot both win.
// A code (digits typed by a person) is stored as an HMAC, never in clear. Guesses at an entry are counted in
// its `attempts` column, and each is counted BEFORE it is compared (docs/decisions/029-atomic-guess-counting.md):
// of any number of guesses sent at once, at most the cap are ever compared.

export type EntryPurpose =
  | "two-factor-attempt"
  | "two-factor-otp"
  | "totp-used"
  | "email-otp-sign-in"
  | "email-otp-email-verification"
  | "email-otp-forget-password"
  | "passkey-sign-up-code"
  /** Step-up: a code mailed to confirm it's the person, keyed by the session that asked (ADR 059). */
  | "reverify-otp"
  /** An ID token accepted once, kept until it expires (docs/decisions/031-id-token-sign-in.md). */
  | "id-token-used";

interface EntryRow {
  /** HMAC of the code, for entries that carry one. */
  codeHash?: string;
  /** Random, per opening: no two openings of one key have the same value. */
  opened?: string;
  [field: string]: unknown;
}

export interface Entry<P> {
  payload: P;
  /** Guesses counted against the entry so far. */
  attempts: number;
  expiresAt: Date;
}

const entryIdentifier = (purpose: EntryPurpose, key: string) => identifierFor(purpose, key);
/** The stored code and the typed one are both read by normalizeTypedCode: case, spaces and dashes mean nothing (ADR 037). */
const codeHash = (purpose: EntryPurpose, key: string, code: string) =>
  hmacBase64Url(`${key}\0${normalizeTypedCode(code)}`, `code:${purpose}`);

function splitRow<P>(value: string): { row: EntryRow; payload: P } {
  const row = JSON.parse(value) as EntryRow;
  // `failures`: the wrong-guess count rows kept in their JSON before the attempts column (harmless, dropped).
  const { failures: _failures, codeHash: _hash, opened: _opened, ...payload } = row;
  return { row, payload: payload as P };
}

/** Opens an entry under `key`, replacing an earlier one (a new code makes the previous one useless). */
export async function openEntry<P extends object>(
  purpose: EntryPurpose,
  key: string,
  payload: P,
  options: { ttlSeconds: number; code?: string },
): Promise<void> {
  const identifier = entryIdentifier(purpose, key);
  // A random nonce makes every opening's value unique, so a guess reserved against the entry this one replaces
  // can neither use up nor end it (those statements are conditional on the value they reserved against).
  const row: EntryRow = { ...payload, opened: randomToken(12), ...(options.code ? { codeHash: codeHash(purpose, key, options.code) } : {}) };
  // A new entry starts with no guesses counted, also when it replaces one whose guesses were used up.
  const data = { value: JSON.stringify(row), expiresAt: new Date(Date.now() + options.ttlSeconds * 1000), attempts: 0 };
  const write = () => db.verification.upsert({ where: { identifier }, create: { identifier, ...data }, update: data });
  try {
    // Two opens of one key at once can both try to create it: the loser's second try updates the winner's
    // row, so the last code mailed is the one that works.
    await write().catch((error) => (isUniqueViolation(error) ? write() : Promise.reject(error)));
  } catch (error) {
    console.error("[latchkey] could not store a verification entry:", (error as Error).message);
    throw new AuthError("UNABLE_TO_CREATE_VERIFICATION");
  }
}

/** The entry under `key` if it exists and has not expired (an expired one is deleted). */
export async function readEntry<P>(purpose: EntryPurpose, key: string): Promise<Entry<P> | null> {
  if (!key || key.length > 4096) return null;
  const identifier = entryIdentifier(purpose, key);
  const found = await db.verification.findUnique({ where: { identifier } });
  if (!found) return null;
  if (found.expiresAt.getTime() <= Date.now()) {
    await db.verification.deleteMany({ where: { identifier, value: found.value } });
    return null;
  }
  return { payload: splitRow<P>(found.value).payload, attempts: found.attempts, expiresAt: found.expiresAt };
}

/** Uses an entry up: true for exactly one of concurrent callers, and only while it has not expired. */
export async function takeEntry(purpose: EntryPurpose, key: string): Promise<boolean> {
  const identifier = entryIdentifier(purpose, key);
  const found = await db.verification.findUnique({ where: { identifier }, select: { expiresAt: true } });
  if (!found) return false;
  const { count } = await db.verification.deleteMany({ where: { identifier } });
  return count === 1 && found.expiresAt.getTime() > Date.now();
}

/** Ends an entry. */
export async function closeEntry(purpose: EntryPurpose, key: string): Promise<void> {
  await db.verification.deleteMany({ where: { identifier: entryIdentifier(purpose, key) } });
}

/**
 * Why a guess could not be made, so was never compared: no such entry (or used up), too old, or all its guesses
 * are taken ("spent": by earlier wrong guesses, or by guesses still being compared).
 */
export type GuessRefusal = "missing" | "expired" | "spent";

/** A guess the entry has counted, and may now be compared. `number` is its place among the entry's guesses. */
export interface ReservedGuess {
  purpose: EntryPurpose;
  key: string;
  identifier: string;
  /** The entry's value when the guess was counted: later statements act only on that same entry. */
  value: string;
  number: number;
  maxGuesses: number;
}

export type Reservation = { ok: true; guess: ReservedGuess } | { ok: false; reason: GuessRefusal };

/**
 * Counts one guess against the entry under `key`, before anything is compared: one conditional UPDATE that
 * succeeds only while fewer than `maxGuesses` are counted and the entry has not expired. Of any number of
 * concurrent callers, at most `maxGuesses` get a reservation, and only a guess with one may be compared.
 */
export async function reserveGuess(purpose: EntryPurpose, key: string, maxGuesses: number): Promise<Reservation> {
  if (!key || key.length > 4096) return { ok: false, reason: "missing" };
  const identifier = entryIdentifier(purpose, key);
  const [counted] = await db.verification.updateManyAndReturn({
    where: { identifier, attempts: { lt: maxGuesses }, expiresAt: { gt: new Date() } },
    data: { attempts: { increment: 1 } },
    select: { value: true, attempts: true },
  });
  if (counted) return { ok: true, guess: { purpose, key, identifier, value: counted.value, number: counted.attempts, maxGuesses } };
  // Why not (nothing is compared from here on).
  const found = await db.verification.findUnique({ where: { identifier }, select: { value: true, expiresAt: true, attempts: true } });
  if (!found) return { ok: false, reason: "missing" };
  if (found.expiresAt.getTime() <= Date.now()) {
    await db.verification.deleteMany({ where: { identifier, value: found.value } });
    return { ok: false, reason: "expired" };
  }
  // Spent by guesses still being compared; or, rarely, just replaced by a new entry (this guess was meant for
  // the old one: nothing to compare it with).
  return { ok: false, reason: found.attempts >= maxGuesses ? "spent" : "missing" };
}

/**
 * A reserved guess was wrong. The last one the entry allows ends it (if it is still the entry the guess was
 * counted against). Returns whether the entry is still open.
 */
export async function settleWrongGuess(guess: ReservedGuess): Promise<boolean> {
  if (guess.number < guess.maxGuesses) return true;
  await db.verification.deleteMany({ where: { identifier: guess.identifier, value: guess.value } });
  return false;
}

/** A reserved guess was right and uses the entry up: true for exactly one of concurrent right guesses. */
export async function useUpWithGuess(guess: ReservedGuess): Promise<boolean> {
  const { count } = await db.verification.deleteMany({ where: { identifier: guess.identifier, value: guess.value } });
  return count === 1;
}

/** A reserved guess was right but leaves the entry in use ("is this code right?"): only wrong guesses count. */
export async function releaseGuess(guess: ReservedGuess): Promise<void> {
  await db.verification.updateMany({
    where: { identifier: guess.identifier, value: guess.value, attempts: { gt: 0 } },
    data: { attempts: { decrement: 1 } },
  });
}

/** "invalid" and "exhausted" were compared (wrong; "exhausted" was the last guess allowed); the rest were not. */
export type CodeCheck<P> = { ok: true; payload: P } | { ok: false; reason: "invalid" | "exhausted" | GuessRefusal };

/**
 * Checks a typed code against the entry under `key`. The guess is counted first and compared only if the
 * entry still had one to give (reserveGuess), in constant time against the stored HMAC. A right code uses the
 * entry up (exactly one of two concurrent right answers wins); a wrong one stays counted, and the
 * `maxFailures`-th ends the entry ("exhausted"). `keep: true` checks without using it up (a "is this code
 * right?" question before the real use): a right answer then gives its guess back.
 */
export async function checkCode<P>(
  purpose: EntryPurpose,
  key: string,
  code: string,
  options: { maxFailures: number; keep?: boolean },
): Promise<CodeCheck<P>> {
  const reservation = await reserveGuess(purpose, key, options.maxFailures);
  if (!reservation.ok) return reservation;
  const { guess } = reservation;
  const { row, payload } = splitRow<P>(guess.value);
  if (!row.codeHash || !safeEqual(row.codeHash, codeHash(purpose, key, code))) {
    return { ok: false, reason: (await settleWrongGuess(guess)) ? "invalid" : "exhausted" };
  }
  if (options.keep) {
    await releaseGuess(guess);
    return { ok: true, payload };
  }
  return (await useUpWithGuess(guess)) ? { ok: true, payload } : { ok: false, reason: "missing" };
}

/**
 * Records that something happened once (e.g. a TOTP code was used in its time step); false if it was already
 * recorded. The unique identifier lets exactly one of concurrent claims through.
 */
export async function claimOnce(purpose: EntryPurpose, key: string, ttlSeconds: number): Promise<boolean> {
  try {
    await db.verification.create({
      data: { identifier: entryIdentifier(purpose, key), value: "{}", expiresAt: new Date(Date.now() + ttlSeconds * 1000) },
    });
    return true;
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}

/** A code of `digits` decimal digits, uniformly random. */
export function randomDigits(digits: number): string {
  return randomToken(digits, "0123456789");
}
