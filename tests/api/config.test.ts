// Start-up configuration: an invalid value stops the server with a message naming the variable.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { migrate } from "../../scripts/lib/migrate.mjs";
import { ApiClient, signUp } from "../support/client";
import { startServer, startServerExpectingFailure, TEST_SECRET } from "../support/server";

// Never the development database, should a case unexpectedly start.
const DATABASE_URL = `file:${path.join(import.meta.dirname, "..", ".tmp", "config-test-never-created.db")}`;
const BASE = { AUTH_SECRET: TEST_SECRET, DATABASE_URL, BASE_URL: "http://localhost:3999", AUTH_RATE_LIMIT: "off" };

async function refuses(env: Record<string, string | undefined>) {
  const result = await startServerExpectingFailure({ ...BASE, ...env });
  expect(result.code, result.output).not.toBe(0);
  expect(result.code, `the server kept running:\n${result.output}`).not.toBeNull();
  // A clear message, not a stack trace.
  expect(result.output).not.toMatch(/\n\s+at .+:\d+:\d+/);
  return result.output;
}

describe("invalid configuration stops start-up", () => {
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
    ["BASE_URL", { BASE_URL: "not a url" }],
    ["BASE_URL", { BASE_URL: "ftp://auth.example.com" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://localhost/app" }],
    ["REDIS_URL", { REDIS_URL: "http://127.0.0.1:6379" }],
    ["AUTH_RATE_LIMIT_STORE", { AUTH_RATE_LIMIT_STORE: "redis" }],
    ["AUTH_RATE_LIMIT_STORE", { AUTH_RATE_LIMIT_STORE: "disk" }],
    ["AUTH_SESSION_CACHE", { AUTH_SESSION_CACHE: "yes" }],
    ["AUTH_SESSION_CACHE_SIZE", { AUTH_SESSION_CACHE_SIZE: "0" }],
    ["AUTH_SECRET", { AUTH_SECRET: "too-short" }],
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
  ];

  it.concurrent.each(cases)("names %s (%j)", async (variable, env) => {
    const output = await refuses(env);
    expect(output).toContain("Invalid configuration");
    expect(output).toContain(variable);
  });

  it("names every invalid variable at once", async () => {
    const output = await refuses({ PORT: "abc", PASSWORD_MIN_LENGTH: "0", AUTH_RATE_LIMIT: "maybe" });
    for (const variable of ["PORT", "PASSWORD_MIN_LENGTH", "AUTH_RATE_LIMIT"]) expect(output).toContain(variable);
  });
});

describe("AUTH_SECRET", () => {
  it("is required when BASE_URL is not a localhost URL", async () => {
    const output = await refuses({ AUTH_SECRET: undefined, BASE_URL: "https://auth.example.com" });
    expect(output).toContain("AUTH_SECRET");
    expect(output).toContain("https://auth.example.com");
  });

  it("on a localhost BASE_URL is generated once beside the SQLite file, with a warning, and kept across restarts", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "latchkey-dev-secret-"));
    const database = { kind: "sqlite" as const, url: `file:${path.join(folder, "app.db")}`, drop: async () => rmSync(folder, { recursive: true, force: true }) };
    await migrate(database.url);
    const first = await startServer({ env: { AUTH_SECRET: "" }, database });
    let second: Awaited<ReturnType<typeof startServer>> | undefined;
    try {
      expect(first.output()).toMatch(/AUTH_SECRET is not set; using the development secret kept in .*auth-secret/);
      const secretFile = path.join(folder, "auth-secret");
      expect(statSync(secretFile).mode & 0o777).toBe(0o600);
      // The database holds password hashes and session tokens: owner-only too.
      expect(statSync(path.join(folder, "app.db")).mode & 0o777).toBe(0o600);
      expect(readFileSync(secretFile, "utf8").length).toBeGreaterThanOrEqual(32);

      const client = new ApiClient(first.baseUrl);
      await signUp(client);
      await first.stop();
      second = await startServer({ env: { AUTH_SECRET: "" }, database });
      const again = new ApiClient(second.baseUrl);
      for (const [name, value] of client.cookies) again.cookies.set(name, value);
      // Signed with the same kept secret, the cookie still works after the restart.
      expect((await again.get("/api/auth/get-session")).body?.user).toBeTruthy();
    } finally {
      await first.stop();
      await second?.stop();
      await database.drop();
    }
  });

  it.each([["empty", ""], ["short", "abc123"]])("refuses a development secret file that is %s", async (_, content) => {
    const folder = mkdtempSync(path.join(tmpdir(), "latchkey-dev-secret-"));
    try {
      writeFileSync(path.join(folder, "auth-secret"), content, { mode: 0o600 });
      const output = await refuses({ AUTH_SECRET: undefined, DATABASE_URL: `file:${path.join(folder, "app.db")}`, BASE_URL: "http://localhost:3999" });
      expect(output).toContain("shorter than 32 characters");
      expect(output).toContain(path.join(folder, "auth-secret"));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it("is also required for an address that merely starts like localhost", async () => {
    const output = await refuses({ AUTH_SECRET: undefined, BASE_URL: "http://localhost.evil.com:3000" });
    expect(output).toContain("AUTH_SECRET");
  });
});

describe("npm start", () => {
  it("checks the configuration before any migration touches the database", () => {
    const folder = mkdtempSync(path.join(tmpdir(), "latchkey-start-"));
    try {
      const file = path.join(folder, "app.db");
      const result = spawnSync(process.execPath, ["scripts/start.mjs", "--no-build"], {
        cwd: path.join(import.meta.dirname, "..", ".."),
        env: { PATH: process.env.PATH, NODE_ENV: "production", ...BASE, DATABASE_URL: `file:${file}`, PORT: "abc" } as NodeJS.ProcessEnv,
        encoding: "utf8",
        timeout: 20_000,
      });
      expect(result.status, result.stdout + result.stderr).not.toBe(0);
      expect(result.stderr).toContain("Invalid configuration");
      expect(result.stderr).toContain("PORT");
      expect(existsSync(file)).toBe(false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
