// The activity page's runs of the same failed sign-in (issue 41): joined only when consecutive and identical, and
// worded with how many and when, in UTC, in the reader's language.
import { describe, expect, it } from "vitest";
import { groupFailedRuns, runWords } from "~/components/activity-rows";
import { SHIPPED_CATALOGS } from "~/i18n/catalogs.server";
import { translator } from "~/i18n/format";

const row = (same: string, at: string, failed = true) => ({ same, failed, at });
const en = translator("en", SHIPPED_CATALOGS.en);
const span = (times: number, first: string, last: string) => ({ times, first, last });

describe("activity rows", () => {
  it("words a run within a minute, across minutes, and across midnight", () => {
    expect(runWords(en, span(3, "2026-12-01T23:48:05Z", "2026-12-01T23:48:50Z"))).toBe("3 times at 23:48 UTC");
    expect(runWords(en, span(18, "2026-12-01T23:48:05Z", "2026-12-01T23:49:50Z"))).toBe("18 times between 23:48 and 23:49 UTC");
    expect(runWords(en, span(4, "2026-11-30T23:58:00Z", "2026-12-01T00:02:00Z"))).toBe("4 times between 30 November at 23:58 and 1 December at 00:02 UTC");
  });

  it("words a run in the reader's language, its count by the language's plural", () => {
    const de = translator("de", SHIPPED_CATALOGS.de);
    expect(runWords(de, span(18, "2026-12-01T23:48:05Z", "2026-12-01T23:49:50Z"))).toBe("18 Mal zwischen 23:48 und 23:49 UTC");
    const ar = translator("ar", SHIPPED_CATALOGS.ar);
    expect(runWords(ar, span(2, "2026-12-01T23:48:05Z", "2026-12-01T23:48:50Z"))).toContain("مرتين");
  });

  it("joins consecutive identical failed sign-ins into the latest, and nothing else", () => {
    const [wrong, elsewhere, signedIn] = ["wrong password, Firefox", "wrong password, Chrome", "signed in"];
    const rows = [
      row(wrong, "2026-12-01T23:49:50Z"),
      row(wrong, "2026-12-01T23:49:10Z"),
      row(wrong, "2026-12-01T23:48:05Z"),
      row(elsewhere, "2026-12-01T23:47:00Z"),
      row(signedIn, "2026-12-01T23:46:00Z", false),
      row(signedIn, "2026-12-01T23:45:00Z", false),
      row(wrong, "2026-12-01T23:44:00Z"),
    ];
    const grouped = groupFailedRuns(rows);
    expect(grouped.map((r) => [r.same, r.span && runWords(en, r.span), r.at])).toEqual([
      [wrong, "3 times between 23:48 and 23:49 UTC", "2026-12-01T23:49:50Z"],
      [elsewhere, null, "2026-12-01T23:47:00Z"],
      [signedIn, null, "2026-12-01T23:46:00Z"],
      [signedIn, null, "2026-12-01T23:45:00Z"],
      [wrong, null, "2026-12-01T23:44:00Z"],
    ]);
  });
});
