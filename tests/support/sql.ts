// Direct reads of a test database, to check what the server stored (rows deleted, counters kept).
// Write SQL with `?` placeholders and double-quoted identifiers; it runs on SQLite and PostgreSQL alike.
import Database from "better-sqlite3";
import pg from "pg";
import type { TestDatabase } from "./database";

export async function query<T = Record<string, unknown>>(database: TestDatabase, sql: string, params: unknown[] = []): Promise<T[]> {
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
    return (await client.query(sql.replace(/\?/g, () => `$${++n}`), params)).rows as T[];
  } finally {
    await client.end();
  }
}

export async function count(database: TestDatabase, table: string, where = "1=1", params: unknown[] = []): Promise<number> {
  const rows = await query<{ n: number | string }>(database, `SELECT COUNT(*) AS n FROM "${table}" WHERE ${where}`, params);
  return Number(rows[0].n);
}
