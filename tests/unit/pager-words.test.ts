// The one pager's line (issue 41, ADR 066): where the rows shown sit in the whole list, in one pattern.
import { describe, expect, it } from "vitest";
import { numberedPages, positionWords } from "~/components/pager";

describe("the pager's words", () => {
  it("says where the rows sit, of an exact total or of a floor, and a page past the end", () => {
    expect(positionWords("events", { first: 21, shown: 20, total: 52 })).toBe("Events 21–40 of 52");
    expect(positionWords("accounts", { first: 10_001, shown: 25, total: 10_000, totalIsExact: false })).toBe("Accounts 10,001–10,025 of more than 10,000");
    expect(positionWords("members", { first: 401, shown: 0, total: 61 })).toBe("No members on this page; there are 61.");
  });

  it("links the pages around a numbered page, none before the first or after the last", () => {
    const href = (n: number) => `/organizations?page=${n}`;
    expect(numberedPages({ page: 1, pages: 3, first: 1, shown: 50, total: 120 }, href)).toEqual({ previous: null, next: "/organizations?page=2" });
    expect(numberedPages({ page: 3, pages: 3, first: 101, shown: 20, total: 120 }, href)).toEqual({ previous: "/organizations?page=2", next: null });
    // Past the end: back to the last page there is.
    expect(numberedPages({ page: 9, pages: 3, first: 401, shown: 0, total: 120 }, href)).toEqual({ previous: "/organizations?page=3", next: null });
  });
});
