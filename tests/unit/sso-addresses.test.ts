// Enterprise SSO's pure rules (issue 43): which IdP addresses are never fetched unless trusted (ADR 070's "no
// request forgery"), which addresses a connection's domains cover, and the domain list's reading.
import { describe, expect, it } from "vitest";
import { assertFetchable, isBlockedAddress } from "~/auth/sso/outbound.server";
import { domainMatches } from "~/auth/sso/identity.server";
import { domainList, isDomainName } from "~/auth/sso/schemas";

describe("isBlockedAddress", () => {
  it.each([
    "127.0.0.1", "127.255.255.254", "10.0.0.1", "172.16.0.1", "172.31.255.255", "192.168.1.1", "169.254.169.254", "100.64.0.1",
    "0.0.0.0", "224.0.0.1", "255.255.255.255", "::1", "::", "fe80::1", "fd00:ec2::254", "fc00::1", "ff02::1", "::ffff:127.0.0.1", "::ffff:10.0.0.1",
    "not an address",
  ])("refuses %s", (address) => expect(isBlockedAddress(address)).toBe(true));

  it.each(["8.8.8.8", "1.1.1.1", "172.32.0.1", "192.169.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])("allows %s", (address) =>
    expect(isBlockedAddress(address)).toBe(false),
  );
});

describe("assertFetchable", () => {
  it.each(["http://127.0.0.1/", "http://[::1]:8080/", "http://localhost/", "http://a.localhost/", "http://metadata.google.internal/", "http://169.254.169.254/latest"])(
    "refuses %s before any look-up",
    (url) => expect(() => assertFetchable(new URL(url))).toThrow(expect.objectContaining({ code: "discovery_private_host" })),
  );
  it("leaves public names to the look-up's own check", () => expect(() => assertFetchable(new URL("https://login.example.com/"))).not.toThrow());
});

describe("domainMatches", () => {
  it("covers the domain and its subdomains only", () => {
    expect(domainMatches("ann@example.com", "example.com")).toBe(true);
    expect(domainMatches("ann@eu.example.com", "example.com")).toBe(true);
    expect(domainMatches("ann@EXAMPLE.com", "example.com")).toBe(true);
    expect(domainMatches("ann@notexample.com", "example.com")).toBe(false);
    expect(domainMatches("ann@example.com.evil.test", "example.com")).toBe(false);
    expect(domainMatches("ann@b.test", "a.test,b.test")).toBe(true);
  });
});

describe("the domain field", () => {
  it("reads a comma-separated list, lowercased, without trailing dots or repeats", () => {
    expect(domainList(" Example.COM., b.test ,example.com")).toEqual(["example.com", "b.test"]);
  });
  it.each(["example.com", "a-b.example.co.uk", "xn--bcher-kva.example"])("takes %s", (name) => expect(isDomainName(name)).toBe(true));
  it.each(["localhost", "-a.example.com", "a..b", "1.2.3.4", "a_b.example.com", `${"a".repeat(64)}.com`])("refuses %s", (name) => expect(isDomainName(name)).toBe(false));
});
