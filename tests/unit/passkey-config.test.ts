// AUTH_PASSKEY_RP_ID / AUTH_PASSKEY_RP_NAME: defaults from BASE_URL and the product, and what stops start-up.
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/env.server";

const BASE = { NODE_ENV: "test" as const, AUTH_SECRET: "unit-test-secret-0123456789-0123456789", BASE_URL: "https://login.example.com" };

describe("passkey relying-party settings", () => {
  it("defaults to BASE_URL's host and the product's name", () => {
    const env = parseEnv(BASE);
    expect(env.AUTH_PASSKEY_RP_ID).toBe("login.example.com");
    expect(env.AUTH_PASSKEY_RP_NAME).toBe("Latchkey");
  });

  it("accepts a domain BASE_URL's host belongs to", () => {
    expect(parseEnv({ ...BASE, AUTH_PASSKEY_RP_ID: "example.com", AUTH_PASSKEY_RP_NAME: "Acme" })).toMatchObject({
      AUTH_PASSKEY_RP_ID: "example.com",
      AUTH_PASSKEY_RP_NAME: "Acme",
    });
  });

  it.each(["other.example", "ample.com", "https://example.com", "example.com:443", "EXAMPLE..com"])("refuses the RP ID %j", (rpId) => {
    expect(() => parseEnv({ ...BASE, AUTH_PASSKEY_RP_ID: rpId })).toThrow(/AUTH_PASSKEY_RP_ID/);
  });
});
