// Start-up configuration: an invalid value stops the server with a message naming the variable.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { migrate } from "../../scripts/lib/migrate.mjs";
import { ApiClient, signUp } from "../support/client";
import { startServer, startServerExpectingFailure, TEST_SECRET } from "../support/server";
import { logLines } from "../support/log-lines";

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
  // Each rule is checked in process (tests/unit/configuration.test.ts); here, that a refusal stops the real
  // server with the message and no stack trace.
  it("names every invalid variable at once, and exits", async () => {
    const output = await refuses({ PORT: "abc", PASSWORD_MIN_LENGTH: "0", AUTH_RATE_LIMIT: "maybe" });
    expect(output).toContain("Invalid configuration");
    for (const variable of ["PORT", "PASSWORD_MIN_LENGTH", "AUTH_RATE_LIMIT"]) expect(output).toContain(variable);
  });

  it("refuses the test-only password hashing on a server others can reach", async () => {
    const output = await refuses({ AUTH_TEST_PASSWORD_HASHING: "fast", BASE_URL: "https://auth.example.com" });
    expect(output).toContain("AUTH_TEST_PASSWORD_HASHING");
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
      // One JSON log line on standard output, as every line the server writes (ADR 062).
      const refusal = logLines(result.stdout).find((line) => line.level === "error");
      expect(refusal?.msg, result.stdout + result.stderr).toContain("Invalid configuration");
      expect(refusal?.msg).toContain("PORT");
      expect(existsSync(file)).toBe(false);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
