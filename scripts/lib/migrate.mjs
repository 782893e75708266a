// Applies the committed Prisma migrations at start-up, for SQLite and PostgreSQL alike.
// Prisma's own `migrate deploy` cannot reach PostgreSQL here without engine binaries, so this runner reads the
// same migration folders and keeps the same `_prisma_migrations` bookkeeping (checksum = SHA-256 of the file),
// which lets `prisma migrate deploy`/`status` on a machine with the classic engine take over at any time.
// See docs/decisions/001-stack-and-prisma.md.
import { createHash, randomUUID } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describeDatabaseUrl, projectRoot } from "./database-url.mjs";

const MIGRATION_LOCK_KEY = 72_707_369; // arbitrary constant shared by every instance of this app

export function migrationsFor(kind) {
  const dir = path.join(projectRoot, "prisma", ...(kind === "postgres" ? ["postgres"] : []), "migrations");
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(dir, entry.name, "migration.sql")))
    .map((entry) => {
      const sql = readFileSync(path.join(dir, entry.name, "migration.sql"), "utf8");
      return { name: entry.name, sql, checksum: createHash("sha256").update(sql).digest("hex") };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

function checkApplied(applied, migrations) {
  for (const row of applied) {
    const local = migrations.find((m) => m.name === row.migration_name);
    if (!local) throw new Error(`database has migration ${row.migration_name}, which this code does not know`);
    if (local.checksum !== row.checksum) throw new Error(`migration ${row.migration_name} was edited after it was applied`);
    if (!row.finished_at) throw new Error(`migration ${row.migration_name} failed earlier; resolve it by hand`);
  }
}

async function migrateSqlite(file) {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // The database holds password hashes and session tokens: readable by its owner only. SQLite gives its -wal and
  // -shm files the same mode as the database file.
  if (!existsSync(file)) closeSync(openSync(file, "a", 0o600));
  const { default: Database } = await import("better-sqlite3");
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.exec(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" TEXT PRIMARY KEY NOT NULL, "checksum" TEXT NOT NULL, "finished_at" DATETIME,
      "migration_name" TEXT NOT NULL, "logs" TEXT, "rolled_back_at" DATETIME,
      "started_at" DATETIME NOT NULL DEFAULT current_timestamp, "applied_steps_count" INTEGER UNSIGNED NOT NULL DEFAULT 0)`);
    const migrations = migrationsFor("sqlite");
    const appliedNames = [];
    // IMMEDIATE takes the write lock first, so two processes starting together apply each migration once.
    db.transaction(() => {
      const applied = db.prepare(`SELECT * FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`).all();
      checkApplied(applied, migrations);
      for (const migration of migrations) {
        if (applied.some((row) => row.migration_name === migration.name)) continue;
        const startedAt = new Date().toISOString();
        db.exec(migration.sql);
        db.prepare(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES (?, ?, ?, ?, ?, 1)`,
        ).run(randomUUID(), migration.checksum, new Date().toISOString(), migration.name, startedAt);
        appliedNames.push(migration.name);
      }
    }).immediate();
    return appliedNames;
  } finally {
    db.close();
  }
}

async function migratePostgres(url) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
    await client.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL, "checksum" VARCHAR(64) NOT NULL, "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL, "logs" TEXT, "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(), "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const migrations = migrationsFor("postgres");
    const { rows: applied } = await client.query(`SELECT * FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`);
    checkApplied(applied, migrations);
    const appliedNames = [];
    for (const migration of migrations) {
      if (applied.some((row) => row.migration_name === migration.name)) continue;
      await client.query("BEGIN");
      try {
        const startedAt = new Date();
        await client.query(migration.sql);
        await client.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, started_at, applied_steps_count) VALUES ($1, $2, now(), $3, $4, 1)`,
          [randomUUID(), migration.checksum, migration.name, startedAt],
        );
        await client.query("COMMIT");
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      }
      appliedNames.push(migration.name);
    }
    return appliedNames;
  } finally {
    await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end();
  }
}

/** Brings the database named by `databaseUrl` up to date; returns the names of the migrations it applied. */
export async function migrate(databaseUrl) {
  const database = describeDatabaseUrl(databaseUrl);
  return database.kind === "postgres" ? migratePostgres(database.url) : migrateSqlite(database.file);
}
