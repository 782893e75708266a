// Rate-limit buckets: IPv4 per address, IPv6 per /64 (one host usually holds a whole /64).
import { describe, expect, it } from "vitest";
import { clientBucket, ruleFor } from "~/auth/rate-limit/limits.server";

describe("clientBucket", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2::1", "2001:db8:1:2::/64"],
    ["2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"],
    ["2001:0db8:0001:0002:0000:0000:0000:0001", "2001:db8:1:2::/64"],
    ["2001:DB8:1:2::FFFF", "2001:db8:1:2::/64"],
    ["::1", "0:0:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["64:ff9b::192.0.2.1", "64:ff9b:0:0::/64"],
    ["unknown", "unknown"],
  ])("%s → %s", (address, bucket) => {
    expect(clientBucket(address)).toBe(bucket);
  });

  it("keeps anything that is not an address as it is", () => {
    expect(clientBucket("1:2:3")).toBe("1:2:3");
    expect(clientBucket("1::2::3")).toBe("1::2::3");
  });
});

// The API suites' servers stretch every window (AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR, tests/support/server.ts), so
// the production windows are pinned here, where the factor is not set.
describe("ruleFor (production windows)", () => {
  it.each([
    ["/sign-in/email", { windowSeconds: 10, max: 3 }],
    ["/sign-up/email", { windowSeconds: 10, max: 3 }],
    ["/two-factor/verify-totp", { windowSeconds: 10, max: 3 }],
    ["/request-password-reset", { windowSeconds: 60, max: 3 }],
    ["/send-verification-email", { windowSeconds: 60, max: 3 }],
    ["/oauth2/token", { windowSeconds: 10, max: 100 }],
    ["/list-sessions", { windowSeconds: 10, max: 100 }],
  ])("%s → %j", (path, rule) => {
    expect(ruleFor(path)).toEqual(rule);
  });

  it("does not limit reads of the session cookie", () => {
    expect(ruleFor("/get-session")).toBeNull();
    expect(ruleFor("/ok")).toBeNull();
  });
});
