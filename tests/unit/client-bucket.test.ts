// Rate-limit buckets: IPv4 per address, IPv6 per /64 (one host usually holds a whole /64).
import { describe, expect, it } from "vitest";
import { clientBucket } from "~/auth/rate-limit/limits.server";

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
