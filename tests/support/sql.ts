// Direct reads of a test database, to check what the server stored (rows deleted, counters kept).
// Write SQL with `?` placeholders and double-quoted identifiers; it runs on SQLite and PostgreSQL alike.
import Database from "better-sqlite3";
import pg from "pg";
import type { TestDatabase } from "./database";

/**
 * Runs one statement. On PostgreSQL a write is announced to the servers' session caches by the database's own
 * triggers, as any hand edit is (docs/decisions/024-session-cache-and-invalidation.md), and arrives a moment
 * after the commit: a test whose next request depends on the server having heard it waits for that
 * (`sessionShows` in tests/support/client.ts). `announce: false` runs it with triggers off
 * (session_replication_role = replica), to show what a cache serves when nobody announces. On SQLite the caches
 * see any commit.
 */
export async function query<T = Record<string, unknown>>(
  database: Pick<TestDatabase, "kind" | "url">,
  sql: string,
  params: unknown[] = [],
  options: { announce?: boolean } = {},
): Promise<T[]> {
  if (database.kind === "sqlite") {
    const db = new Database(database.url.slice("file:".length), { fileMustExist: true });
    try {
      const statement = db.prepare(sql);
      return (statement.reader ? statement.all(...params) : (statement.run(...params), [])) as T[];
    } finally {
      db.close();
    }
  }
  let n = 0;
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const isWrite = /^\s*(insert|update|delete)\b/i.test(sql);
    if (isWrite && options.announce === false) await client.query("SET session_replication_role = replica");
    const { rows } = await client.query(sql.replace(/\?/g, () => `$${++n}`), params);
    return rows as T[];
  } finally {
    await client.end();
  }
}

export async function count(database: TestDatabase, table: string, where = "1=1", params: unknown[] = []): Promise<number> {
  const rows = await query<{ n: number | string }>(database, `SELECT COUNT(*) AS n FROM "${table}" WHERE ${where}`, params);
  return Number(rows[0].n);
}
