// The SQLite and PostgreSQL schemas and migrations must describe the same data: a change made to one and not
// the other fails here.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../support/database";
import { postgresSchemaFrom } from "../../scripts/sync-postgres-schema.mjs";
import { migrate } from "../../scripts/lib/migrate.mjs";

const root = path.join(import.meta.dirname, "..", "..");
const tmp = path.join(root, "tests", ".tmp");
const skipPostgres = process.env.TEST_SKIP_POSTGRES === "1";

interface Column {
  name: string;
  nullable: boolean;
}
type Shape = Record<string, Column[]>;
type Uniques = Record<string, string[]>;

const migrationNames = (dir: string) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

function sqliteShape(file: string): { shape: Shape; uniques: Uniques } {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
      .all() as Array<{ name: string }>;
    const shape: Shape = {};
    const uniques: Uniques = {};
    for (const { name } of tables) {
      const columns = db.prepare(`PRAGMA table_info("${name}")`).all() as Array<{ name: string; notnull: number; pk: number }>;
      shape[name] = columns.map((c) => ({ name: c.name, nullable: c.notnull === 0 && c.pk === 0 })).sort((a, b) => a.name.localeCompare(b.name));
      const indexes = db.prepare(`PRAGMA index_list("${name}")`).all() as Array<{ name: string; unique: number; origin: string }>;
      uniques[name] = indexes
        .filter((index) => index.unique === 1 && index.origin !== "pk")
        .map((index) => (db.prepare(`PRAGMA index_info("${index.name}")`).all() as Array<{ name: string }>).map((c) => c.name).join(","))
        .sort();
    }
    return { shape, uniques };
  } finally {
    db.close();
  }
}

async function postgresShape(url: string): Promise<{ shape: Shape; uniques: Uniques }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string; column_name: string; is_nullable: string }>(
      `SELECT table_name, column_name, is_nullable FROM information_schema.columns WHERE table_schema = 'public' ORDER BY table_name, column_name`,
    );
    const shape: Shape = {};
    for (const row of rows) (shape[row.table_name] ??= []).push({ name: row.column_name, nullable: row.is_nullable === "YES" });
    for (const table of Object.keys(shape)) shape[table].sort((a, b) => a.name.localeCompare(b.name));
    const { rows: indexRows } = await client.query<{ table: string; columns: string[] }>(
      `SELECT t.relname AS table, array_agg(a.attname::text ORDER BY k.ord) AS columns
         FROM pg_index i
         JOIN pg_class t ON t.oid = i.indrelid
         JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'
         CROSS JOIN LATERAL unnest(i.indkey) WITH ORDINALITY AS k(attnum, ord)
         JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
        WHERE i.indisunique AND NOT i.indisprimary
        GROUP BY i.indexrelid, t.relname`,
    );
    const uniques: Uniques = Object.fromEntries(Object.keys(shape).map((table) => [table, [] as string[]]));
    for (const row of indexRows) uniques[row.table].push(row.columns.join(","));
    for (const table of Object.keys(uniques)) uniques[table].sort();
    return { shape, uniques };
  } finally {
    await client.end();
  }
}

const databases: TestDatabase[] = [];
afterAll(async () => {
  await Promise.all(databases.map((database) => database.drop()));
});

describe("schema files", () => {
  it("prisma/postgres/schema.prisma is exactly what scripts/sync-postgres-schema.mjs makes of prisma/schema.prisma", () => {
    const source = readFileSync(path.join(root, "prisma", "schema.prisma"), "utf8");
    const generated = readFileSync(path.join(root, "prisma", "postgres", "schema.prisma"), "utf8");
    const expected = postgresSchemaFrom(source);
    expect(expected).not.toBe(source); // the transformation did something
    expect(expected).toContain('provider = "postgresql"');
    expect(generated).toBe(expected);
  });

  it("both databases have the same migrations, each with a migration.sql", () => {
    const sqlite = migrationNames("prisma/migrations");
    const postgres = migrationNames("prisma/postgres/migrations");
    expect(sqlite.length).toBeGreaterThan(0);
    expect(postgres).toEqual(sqlite);
    for (const name of sqlite) {
      expect(readFileSync(path.join(root, "prisma/migrations", name, "migration.sql"), "utf8").length).toBeGreaterThan(0);
      expect(readFileSync(path.join(root, "prisma/postgres/migrations", name, "migration.sql"), "utf8").length).toBeGreaterThan(0);
    }
  });
});

describe("migrated databases", () => {
  it.skipIf(skipPostgres)("a fresh SQLite and a fresh PostgreSQL database end up with the same tables, columns and unique keys", async () => {
    const [sqlite, postgres] = await Promise.all([createTestDatabase("sqlite"), createTestDatabase("postgres")]);
    databases.push(sqlite, postgres);
    const lite = sqliteShape(sqlite.url.slice("file:".length));
    const big = await postgresShape(postgres.url);
    const tables = Object.keys(lite.shape).sort();
    expect(tables).toEqual(expect.arrayContaining(["user", "session", "account", "verification", "rateLimit", "organization", "member", "invitation", "passkey", "twoFactor"]));
    expect(Object.keys(big.shape).sort()).toEqual(tables);
    for (const table of tables) {
      expect(big.shape[table].map((c) => c.name), `${table} columns`).toEqual(lite.shape[table].map((c) => c.name));
      expect(big.shape[table], `${table} nullability`).toEqual(lite.shape[table]);
      expect(big.uniques[table], `${table} unique keys`).toEqual(lite.uniques[table]);
    }
  });

  it("`prisma migrate deploy` brings an empty SQLite file to the same schema, and the start-up runner agrees", async () => {
    mkdirSync(tmp, { recursive: true });
    const file = path.join(tmp, `prisma-deploy-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}.db`);
    const cleanup = () => {
      for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
    };
    try {
      const env = { ...process.env, DATABASE_URL: `file:${file}`, PRISMA_HIDE_UPDATE_MESSAGE: "1" };
      const run = () => promisify(execFile)(process.execPath, ["node_modules/prisma/build/index.js", "migrate", "deploy"], { cwd: root, env });
      const { stdout } = await run();
      expect(stdout).toMatch(/applied|successfully/i);

      const reference = await createTestDatabase("sqlite");
      databases.push(reference);
      const deployed = sqliteShape(file);
      const expected = sqliteShape(reference.url.slice("file:".length));
      expect(deployed.shape).toEqual(expected.shape);
      expect(deployed.uniques).toEqual(expected.uniques);

      // Prisma's bookkeeping uses the same checksums as scripts/lib/migrate.mjs, so either may take over.
      const db = new Database(file, { readonly: true });
      const rows = db.prepare(`SELECT migration_name, checksum FROM "_prisma_migrations" ORDER BY migration_name`).all() as Array<{ migration_name: string; checksum: string }>;
      db.close();
      expect(rows.map((r) => r.migration_name)).toEqual(migrationNames("prisma/migrations"));
      for (const row of rows) {
        const sql = readFileSync(path.join(root, "prisma/migrations", row.migration_name, "migration.sql"), "utf8");
        expect(row.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
      }
      expect(await migrate(`file:${file}`)).toEqual([]);
      // And a second deploy has nothing to do.
      expect((await run()).stdout).toMatch(/no pending migrations/i);
    } finally {
      cleanup();
    }
  });
});
