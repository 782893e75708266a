// The activity page's runs of the same failed sign-in (issue 41): joined only when consecutive and identical, and
// worded with how many and when, in UTC.
import { describe, expect, it } from "vitest";
import { groupFailedRuns, runWords } from "~/components/activity-rows";

const row = (what: string, at: string, failed = true, where = "Firefox on Linux, 203.0.113.9") => ({ what, where, failed, at });

describe("activity rows", () => {
  it("words a run within a minute, across minutes, and across midnight", () => {
    expect(runWords(3, new Date("2026-12-01T23:48:05Z"), new Date("2026-12-01T23:48:50Z"))).toBe("3 times at 23:48 UTC");
    expect(runWords(18, new Date("2026-12-01T23:48:05Z"), new Date("2026-12-01T23:49:50Z"))).toBe("18 times between 23:48 and 23:49 UTC");
    expect(runWords(4, new Date("2026-11-30T23:58:00Z"), new Date("2026-12-01T00:02:00Z"))).toBe("4 times between 30 November at 23:58 and 1 December at 00:02 UTC");
  });

  it("joins consecutive identical failed sign-ins into the latest, and nothing else", () => {
    const rows = [
      row("Wrong password entered", "2026-12-01T23:49:50Z"),
      row("Wrong password entered", "2026-12-01T23:49:10Z"),
      row("Wrong password entered", "2026-12-01T23:48:05Z"),
      row("Wrong password entered", "2026-12-01T23:47:00Z", true, "Chrome on Windows, 198.51.100.7"),
      row("Signed in with a password", "2026-12-01T23:46:00Z", false),
      row("Signed in with a password", "2026-12-01T23:45:00Z", false),
      row("Wrong password entered", "2026-12-01T23:44:00Z"),
    ];
    const grouped = groupFailedRuns(rows);
    expect(grouped.map((r) => [r.what, r.times, r.span, r.at])).toEqual([
      ["Wrong password entered", 3, "3 times between 23:48 and 23:49 UTC", "2026-12-01T23:49:50Z"],
      ["Wrong password entered", 1, null, "2026-12-01T23:47:00Z"],
      ["Signed in with a password", 1, null, "2026-12-01T23:46:00Z"],
      ["Signed in with a password", 1, null, "2026-12-01T23:45:00Z"],
      ["Wrong password entered", 1, null, "2026-12-01T23:44:00Z"],
    ]);
  });
});
