// The server the browser tests run against: the built app on a fresh SQLite database under tests/.tmp.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { migrate } from "../../scripts/lib/migrate.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const tmp = path.join(root, "tests", ".tmp");
mkdirSync(tmp, { recursive: true });
const file = path.join(tmp, "e2e.db");
for (const suffix of ["", "-wal", "-shm"]) rmSync(file + suffix, { force: true });
const port = process.env.E2E_PORT ?? "3210";

Object.assign(process.env, {
  NODE_ENV: "production",
  // Cheap test-only password hashing (ADR 032); the server accepts it only with a loopback BASE_URL.
  AUTH_TEST_PASSWORD_HASHING: "fast",
  PORT: port,
  HOST: "127.0.0.1",
  BASE_URL: `http://localhost:${port}`,
  AUTH_SECRET: "e2e-secret-that-is-long-enough-for-hmac-0123456789",
  DATABASE_URL: `file:${file}`,
  AUTH_RATE_LIMIT: "off",
  ...(process.env.E2E_EXTRA_ENV ? JSON.parse(process.env.E2E_EXTRA_ENV) : {}),
});
await migrate(process.env.DATABASE_URL);
process.chdir(root);
await import("../../server.mjs");
