// Fresh, uniquely named databases for tests; dropped afterwards. Never the development database.
import { mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { randomBytes } from "node:crypto";
import { migrate } from "../../scripts/lib/migrate.mjs";

export type DatabaseKind = "sqlite" | "postgres";
export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
const tmpDir = path.join(import.meta.dirname, "..", ".tmp");

export interface TestDatabase {
  kind: DatabaseKind;
  url: string;
  drop(): Promise<void>;
}

export function databaseKindUnderTest(): DatabaseKind {
  return process.env.TEST_DATABASE === "postgres" ? "postgres" : "sqlite";
}

export async function createTestDatabase(kind: DatabaseKind = databaseKindUnderTest()): Promise<TestDatabase> {
  const name = `latchkey_test_${Date.now().toString(36)}_${randomBytes(4).toString("hex")}`;
  if (kind === "sqlite") {
    mkdirSync(tmpDir, { recursive: true });
    const file = path.join(tmpDir, `${name}.db`);
    const url = `file:${file}`;
    await migrate(url);
    return {
      kind,
      url,
      drop: async () => {
        for (const suffix of ["", "-wal", "-shm", "-journal"]) rmSync(file + suffix, { force: true });
      },
    };
  }
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  await migrate(url.toString());
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
