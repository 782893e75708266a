// The one reading of a typed code (ADR 037): case, spaces and dashes mean nothing, for every kind of code.
import { describe, expect, it } from "vitest";
import { CODE_ALPHABET, normalizeTypedCode } from "~/auth/core/typed-code";

describe("normalizeTypedCode", () => {
  it.each([
    ["123456", "123456"],
    ["123 456", "123456"],
    [" 123-456 ", "123456"],
    ["12 34 56", "123456"],
    ["１２３ ４５６", "123456"], // full-width digits from an IME
    ["123\u2013456", "123456"], // en dash, as word processors make "-"
    ["123\u00a0456", "123456"], // a no-break space from a copied mail
    ["abcde-fghjk", "ABCDEFGHJK"],
    ["ABCDE FGHJK", "ABCDEFGHJK"],
    ["AbCdEfGhJk", "ABCDEFGHJK"],
    ["\tabcd efgh\n", "ABCDEFGH"],
  ])("reads %j as %j", (typed, read) => {
    expect(normalizeTypedCode(typed)).toBe(read);
  });

  it("is idempotent, so the stored side and the typed side can both go through it", () => {
    for (const code of ["ABCDE-FGHJK", "123 456", "x-y z"]) {
      expect(normalizeTypedCode(normalizeTypedCode(code))).toBe(normalizeTypedCode(code));
    }
  });

  it("leaves nothing for a code of only spaces and dashes", () => {
    expect(normalizeTypedCode(" - - ")).toBe("");
  });
});

describe("CODE_ALPHABET", () => {
  it("has one case, no look-alikes, and 32 symbols (5 bits each)", () => {
    expect(CODE_ALPHABET).toHaveLength(32);
    expect(new Set(CODE_ALPHABET).size).toBe(32);
    expect(CODE_ALPHABET).toBe(CODE_ALPHABET.toUpperCase());
    for (const lookAlike of "Il1O0") expect(CODE_ALPHABET).not.toContain(lookAlike);
    expect(normalizeTypedCode(CODE_ALPHABET)).toBe(CODE_ALPHABET);
  });
});
