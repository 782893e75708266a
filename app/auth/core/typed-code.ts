// The one reading of a code someone typed (issue 27, docs/decisions/037-codes-people-can-copy.md). Every code
// that is checked — e-mailed codes, reset codes, two-factor codes from an app or an e-mail, backup codes, passkey
// sign-up codes — goes through `normalizeTypedCode` before it is hashed or compared, on both sides: when it is
// stored and when it is typed. Case, spaces and dashes carry no meaning in any of them.

/**
 * Letters and digits nobody confuses when copying by hand: upper case only (so no `l`), and no I, O, 0 or 1
 * (`I`/`l`/`1` and `O`/`0` look alike on paper and in many fonts). 32 symbols: 5 bits each.
 */
export const CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/** Dashes of every kind people or their keyboards type (hyphen-minus, hyphen, non-breaking hyphen, en/em, minus…). */
const DASHES_AND_SPACES = /[\s\u002D\u00AD\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;

/**
 * "abcde fghjk", "ABCDE-FGHJK" and "ABCDEFGHJK" read the same; so do "123 456", "123-456" and full-width
 * "１２３４５６" (NFKC). Upper case, because the code alphabets are upper case; digits are unchanged.
 */
export function normalizeTypedCode(typed: string): string {
  return typed.normalize("NFKC").replace(DASHES_AND_SPACES, "").toUpperCase();
}
