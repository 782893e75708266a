// The one pager's line (issue 41, ADR 066): where the rows shown sit in the whole list, in one pattern.
import { describe, expect, it } from "vitest";
import { numberedPages, positionWords } from "~/components/pager";
import { SHIPPED_CATALOGS } from "~/i18n/catalogs.server";
import { translator } from "~/i18n/format";

const en = translator("en", SHIPPED_CATALOGS.en);

describe("the pager's words", () => {
  it("says where the rows sit, of an exact total or of a floor, and a page past the end", () => {
    expect(positionWords(en, "events", { first: 21, shown: 20, total: 52 })).toBe("Events 21–40 of 52");
    expect(positionWords(en, "accounts", { first: 10_001, shown: 25, total: 10_000, totalIsExact: false })).toBe("Accounts 10,001–10,025 of more than 10,000");
    expect(positionWords(en, "members", { first: 401, shown: 0, total: 61 })).toBe("No members on this page; there are 61.");
  });

  it("says it in the reader's language, numbers written as the language writes them", () => {
    const de = translator("de", SHIPPED_CATALOGS.de);
    expect(positionWords(de, "accounts", { first: 10_001, shown: 25, total: 10_000, totalIsExact: false })).toBe("Konten 10.001–10.025 von mehr als 10.000");
    const he = translator("he", SHIPPED_CATALOGS.he);
    expect(positionWords(he, "events", { first: 21, shown: 20, total: 52 })).toBe("אירועים 21–40 מתוך 52");
  });

  it("links the pages around a numbered page, none before the first or after the last", () => {
    const href = (n: number) => `/organizations?page=${n}`;
    expect(numberedPages({ page: 1, pages: 3, first: 1, shown: 50, total: 120 }, href)).toEqual({ previous: null, next: "/organizations?page=2" });
    expect(numberedPages({ page: 3, pages: 3, first: 101, shown: 20, total: 120 }, href)).toEqual({ previous: "/organizations?page=2", next: null });
    // Past the end: back to the last page there is.
    expect(numberedPages({ page: 9, pages: 3, first: 401, shown: 0, total: 120 }, href)).toEqual({ previous: "/organizations?page=3", next: null });
  });
});
