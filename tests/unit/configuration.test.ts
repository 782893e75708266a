// Start-up configuration rules, checked in process against parseEnv (the function the server runs first): an
// invalid value is refused with a message naming the variable. tests/api/config.test.ts checks, with real
// processes, that such a refusal stops the server with that message and no stack trace.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/env.server";

const BASE = {
  NODE_ENV: "production" as const,
  AUTH_SECRET: "unit-test-secret-0123456789-0123456789",
  DATABASE_URL: "file:./tests/.tmp/config-unit-never-created.db",
  BASE_URL: "http://localhost:3999",
};

function refusal(env: Record<string, string | undefined>): string {
  try {
    parseEnv({ ...BASE, ...env } as unknown as NodeJS.ProcessEnv);
  } catch (error) {
    expect((error as Error).name).toBe("ConfigurationError");
    return (error as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(env)}`);
}

describe("an invalid value is refused, naming the variable", () => {
  const cases: Array<[string, Record<string, string>]> = [
    ["PORT", { PORT: "abc" }],
    ["PORT", { PORT: "70000" }],
    ["PASSWORD_MIN_LENGTH", { PASSWORD_MIN_LENGTH: "0" }],
    ["PASSWORD_MAX_LENGTH", { PASSWORD_MAX_LENGTH: "lots" }],
    ["PASSWORD_MIN_LENGTH", { PASSWORD_MIN_LENGTH: "20", PASSWORD_MAX_LENGTH: "10" }],
    ["AUTH_SESSION_EXPIRES_IN", { AUTH_SESSION_EXPIRES_IN: "-5" }],
    ["AUTH_SESSION_EXPIRES_IN", { AUTH_SESSION_EXPIRES_IN: String(400 * 24 * 3600 + 1) }],
    ["AUTH_SESSION_UPDATE_AGE", { AUTH_SESSION_UPDATE_AGE: "1.5" }],
    ["AUTH_COOKIE_CACHE_MAX_AGE", { AUTH_COOKIE_CACHE_MAX_AGE: "-1" }],
    ["AUTH_RATE_LIMIT", { AUTH_RATE_LIMIT: "sometimes" }],
    ["AUTH_LOCKOUT", { AUTH_LOCKOUT: "maybe" }],
    ["AUTH_LOCKOUT_MAX_FAILURES", { AUTH_LOCKOUT_MAX_FAILURES: "0" }],
    ["AUTH_LOCKOUT_WINDOW_SECONDS", { AUTH_LOCKOUT_WINDOW_SECONDS: "9" }],
    ["AUTH_POW", { AUTH_POW: "sometimes" }],
    ["AUTH_POW_COST", { AUTH_POW_COST: "0" }],
    ["AUTH_POW_COST", { AUTH_POW_COST: "1.5" }],
    ["AUTH_POW_COST", { AUTH_POW_COST: "100001" }],
    ["BASE_URL", { BASE_URL: "not a url" }],
    ["BASE_URL", { BASE_URL: "ftp://auth.example.com" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://localhost/app" }],
    ["REDIS_URL", { REDIS_URL: "http://127.0.0.1:6379" }],
    ["AUTH_RATE_LIMIT_STORE", { AUTH_RATE_LIMIT_STORE: "redis" }],
    ["AUTH_RATE_LIMIT_STORE", { AUTH_RATE_LIMIT_STORE: "disk" }],
    ["AUTH_SESSION_CACHE", { AUTH_SESSION_CACHE: "yes" }],
    ["AUTH_SESSION_CACHE_SIZE", { AUTH_SESSION_CACHE_SIZE: "0" }],
    ["AUTH_SECRET", { AUTH_SECRET: "too-short" }],
    // The breached-password check (ADR 056).
    ["AUTH_PASSWORD_BLOCKLIST", { AUTH_PASSWORD_BLOCKLIST: "maybe" }],
    ["AUTH_PASSWORD_RANGE_URL", { AUTH_PASSWORD_RANGE_URL: "not a url" }],
    ["AUTH_PASSWORD_RANGE_URL", { AUTH_PASSWORD_RANGE_URL: "ftp://range.example.com/" }],
    ["AUTH_PASSWORD_RANGE_URL", { AUTH_PASSWORD_RANGE_URL: "https://api.pwnedpasswords.com/range" }],
    ["AUTH_PASSWORD_RANGE_URL", { AUTH_PASSWORD_RANGE_URL: "https://api.pwnedpasswords.com/range/", AUTH_PASSWORD_BLOCKLIST: "off" }],
    // A social provider switched on without the rest of what it needs.
    ["GITHUB_CLIENT_SECRET", { GITHUB_CLIENT_ID: "an-id" }],
    ["GOOGLE_CLIENT_ID", { GOOGLE_CLIENT_SECRET: "a-secret" }],
    ["APPLE_PRIVATE_KEY", { APPLE_CLIENT_ID: "an-id", APPLE_TEAM_ID: "team", APPLE_KEY_ID: "key" }],
    ["OIDC_CLIENT_SECRET", { OIDC_ISSUER: "https://idp.example.com", OIDC_CLIENT_ID: "an-id" }],
    ["OIDC_ISSUER", { OIDC_ISSUER: "http://idp.example.com", OIDC_CLIENT_ID: "an-id", OIDC_CLIENT_SECRET: "s" }],
    ["OIDC_PROVIDER_ID", { OIDC_ISSUER: "https://idp.example.com", OIDC_CLIENT_ID: "an-id", OIDC_CLIENT_SECRET: "s", OIDC_PROVIDER_ID: "github" }],
    ["AUTH_TRUSTED_PROVIDERS", { AUTH_TRUSTED_PROVIDERS: "myspace" }],
    // The test suites' cheap password hashing on a server others can reach.
    ["AUTH_TEST_PASSWORD_HASHING", { AUTH_TEST_PASSWORD_HASHING: "fast", BASE_URL: "https://auth.example.com" }],
    ["AUTH_TEST_PASSWORD_HASHING", { AUTH_TEST_PASSWORD_HASHING: "fast", BASE_URL: "http://localhost.example.com" }],
    // The test suites' longer rate-limit windows, likewise.
    ["AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR", { AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR: "60", BASE_URL: "https://auth.example.com" }],
    ["AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR", { AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR: "0" }],
    ["AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR", { AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR: "1.5" }],
  ];

  it.each(cases)("names %s (%j)", (variable, env) => {
    const message = refusal(env);
    expect(message).toContain("Invalid configuration");
    expect(message).toContain(variable);
  });

  it("names every invalid variable at once", () => {
    const message = refusal({ PORT: "abc", PASSWORD_MIN_LENGTH: "0", AUTH_RATE_LIMIT: "maybe" });
    for (const variable of ["PORT", "PASSWORD_MIN_LENGTH", "AUTH_RATE_LIMIT"]) expect(message).toContain(variable);
  });

  it("accepts the defaults, and the test-only hashing and rate-limit windows on a loopback BASE_URL", () => {
    expect(parseEnv(BASE).PORT).toBe(3000);
    expect(parseEnv(BASE).AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR).toBe(1);
    for (const BASE_URL of ["http://localhost:3999", "http://127.0.0.1:4000", "http://[::1]:4000"]) {
      expect(parseEnv({ ...BASE, BASE_URL, AUTH_TEST_PASSWORD_HASHING: "fast" }).AUTH_TEST_PASSWORD_HASHING).toBe("fast");
      expect(parseEnv({ ...BASE, BASE_URL, AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR: "60" }).AUTH_TEST_RATE_LIMIT_WINDOW_FACTOR).toBe(60);
    }
  });
});

describe("AUTH_SECRET", () => {
  it("is required when BASE_URL is not a localhost URL", () => {
    const message = refusal({ AUTH_SECRET: undefined, BASE_URL: "https://auth.example.com" });
    expect(message).toContain("AUTH_SECRET");
    expect(message).toContain("https://auth.example.com");
  });

  it("is also required for an address that merely starts like localhost", () => {
    expect(refusal({ AUTH_SECRET: undefined, BASE_URL: "http://localhost.evil.com:3000" })).toContain("AUTH_SECRET");
  });

  it.each([["empty", ""], ["short", "abc123"]])("refuses a development secret file that is %s", (_, content) => {
    const folder = mkdtempSync(path.join(tmpdir(), "latchkey-dev-secret-"));
    try {
      writeFileSync(path.join(folder, "auth-secret"), content, { mode: 0o600 });
      const message = refusal({ AUTH_SECRET: undefined, DATABASE_URL: `file:${path.join(folder, "app.db")}`, BASE_URL: "http://localhost:3999" });
      expect(message).toContain("shorter than 32 characters");
      expect(message).toContain(path.join(folder, "auth-secret"));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
