// Throw-away databases for tests and benchmarks: uniquely named, migrated, and dropped by `drop()`.
// Never the development database.
import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { projectRoot } from "./database-url.mjs";
import { migrate } from "./migrate.mjs";

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const scratchDir = path.join(projectRoot, "tests", ".tmp");

/**
 * @param {"sqlite" | "postgres"} kind
 * @param {string} prefix names the database after its user ("latchkey_test", "latchkey_bench")
 * @param {{ migrate?: boolean }} [options] `migrate: false` leaves it empty (the benchmark's Better Auth makes
 *   its own tables)
 * @returns {Promise<{ kind: "sqlite" | "postgres", url: string, drop: () => Promise<void> }>}
 */
export async function createScratchDatabase(kind, prefix = "latchkey_test", { migrate: applyMigrations = true } = {}) {
  const name = `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  if (kind === "sqlite") {
    mkdirSync(scratchDir, { recursive: true });
    const file = path.join(scratchDir, `${name}.db`);
    const url = `file:${file}`;
    if (applyMigrations) await migrate(url);
    return {
      kind,
      url,
      drop: async () => {
        for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
      },
    };
  }
  const { default: pg } = await import("pg");
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(`PostgreSQL is not reachable at ${POSTGRES_ADMIN_URL} (${error.message})`);
  }
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  if (applyMigrations) await migrate(url.toString());
  return {
    kind,
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await client.end();
    },
  };
}
