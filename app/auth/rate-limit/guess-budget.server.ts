// The per-account cap on code guesses (docs/decisions/029-atomic-guess-counting.md). Each code or two-factor
// attempt caps its own wrong guesses (3 or 5), but anyone can ask for another code, and whoever has the password
// can open another two-factor attempt; this budget is what those caps cannot multiply past. It is counted per
// account, never per client address, in the database's rateLimit table that every instance shares, and holds
// whatever AUTH_RATE_LIMIT says (like the per-recipient mail quota).
import { randomToken, sha256Hex } from "~/auth/core/crypto.server";
import { tooManyRequests } from "~/auth/rate-limit/limits.server";
import { db } from "~/db.server";

/**
 * Wrong guesses one account may make at its codes in a window (fixed, starting with the first guess): an hour,
 * 10 guesses. The account is its address for e-mailed sign-in, verification and reset codes, and its user id for
 * the second factor (TOTP, backup and e-mailed two-factor codes, and the TOTP code that confirms a setup).
 */
export const WRONG_CODE_GUESSES_PER_ACCOUNT = { max: 10, windowSeconds: 60 * 60 } as const;

/** Whose budget a guess comes out of. */
export type GuessAccount = { email: string } | { userId: string };

/** A guess taken from an account's budget: a right answer gives it back. */
export interface AccountGuess {
  key: string;
  /** The window it was counted in (ms since the epoch), so it is given back to that window only. */
  windowStartedAt: number;
}

// Hashed: the table then holds no addresses, and no key can look like a rate-limit key (`bucket|/path`).
const keyOf = (account: GuessAccount) => `guesses:${sha256Hex("email" in account ? `email:${account.email}` : `user:${account.userId}`)}`;

/**
 * Takes one guess from the account's budget before a code is compared: one statement that counts it only while
 * the window has guesses left (a new window starts once the last has ended), so concurrent guesses on any number
 * of instances cannot all slip in. None left: 429 "Too many requests" with Retry-After, before any comparison.
 */
export async function takeAccountGuess(account: GuessAccount): Promise<AccountGuess> {
  const key = keyOf(account);
  const { max, windowSeconds } = WRONG_CODE_GUESSES_PER_ACCOUNT;
  const now = Date.now();
  const ended = BigInt(now - windowSeconds * 1000);
  const rows = await db.$queryRaw<Array<{ lastRequest: number | bigint }>>`
    INSERT INTO "rateLimit" ("id", "key", "count", "lastRequest") VALUES (${randomToken(24)}, ${key}, 1, ${BigInt(now)})
    ON CONFLICT ("key") DO UPDATE SET
      "count" = CASE WHEN "rateLimit"."lastRequest" <= ${ended} THEN 1 ELSE "rateLimit"."count" + 1 END,
      "lastRequest" = CASE WHEN "rateLimit"."lastRequest" <= ${ended} THEN ${BigInt(now)} ELSE "rateLimit"."lastRequest" END
    WHERE "rateLimit"."lastRequest" <= ${ended} OR "rateLimit"."count" < ${max}
    RETURNING "lastRequest"`;
  if (rows.length === 1) return { key, windowStartedAt: Number(rows[0].lastRequest) };
  const window = await db.rateLimit.findUnique({ where: { key }, select: { lastRequest: true } });
  const endsAt = (window ? Number(window.lastRequest) : now) + windowSeconds * 1000;
  throw tooManyRequests(Math.max(1, Math.ceil((endsAt - now) / 1000)));
}

/** The guess was right: it does not count (only wrong guesses use the budget up). */
export async function giveBackAccountGuess(guess: AccountGuess): Promise<void> {
  await db.rateLimit.updateMany({
    where: { key: guess.key, lastRequest: BigInt(guess.windowStartedAt), count: { gt: 0 } },
    data: { count: { decrement: 1 } },
  });
}

/**
 * One comparison of a typed secret under the account's budget: refused (429) before comparing when the budget is
 * spent; an answer `isRight` says was right gives its guess back, every other outcome (wrong, unknown, expired,
 * an error) keeps it counted.
 */
export async function guessWithinBudget<T>(account: GuessAccount, compare: () => Promise<T>, isRight: (outcome: T) => boolean): Promise<T> {
  const guess = await takeAccountGuess(account);
  const outcome = await compare();
  if (isRight(outcome)) await giveBackAccountGuess(guess);
  return outcome;
}
