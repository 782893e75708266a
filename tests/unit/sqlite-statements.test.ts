// The SQLite statement cache (app/sqlite-statements.server.ts) under the adapter's calling pattern:
// prepare(sql).bind(args) then run / columns / raw().all(), and prepare("BEGIN").run().
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { cachePreparedStatements, STATEMENT_CACHE_SIZE, type CachedStatement } from "~/sqlite-statements.server";

function connection() {
  const database = new Database(":memory:");
  database.defaultSafeIntegers(true); // as the adapter opens it
  database.exec(`CREATE TABLE item ("id" TEXT PRIMARY KEY, "n" INTEGER NOT NULL)`);
  let prepared = 0;
  const counting = { prepare: (sql: string) => (prepared++, database.prepare(sql)) };
  const original = cachePreparedStatements(counting);
  const prepare = (sql: string) => counting.prepare(sql) as CachedStatement;
  return { database, prepare, original, prepared: () => prepared };
}

describe("prepared statements kept per SQL text", () => {
  it("prepares a statement once and runs it with each call's own parameters", () => {
    const { prepare, prepared } = connection();
    const insert = `INSERT INTO item ("id", "n") VALUES (?, ?)`;
    prepare(insert).bind(["a", 1]).run();
    prepare(insert).bind(["b", 2]).run();
    const select = `SELECT "id", "n" FROM item WHERE "n" >= ? ORDER BY "n"`;
    const first = prepare(select).bind([1]);
    expect(first.reader).toBe(true);
    expect(first.columns()).toHaveLength(2);
    expect(first.raw().all()).toEqual([["a", 1n], ["b", 2n]]);
    expect(prepare(select).bind([2]).raw().all()).toEqual([["b", 2n]]);
    expect(prepared()).toBe(2);
  });

  it("leaves raw mode off after each read, so another caller of the same SQL gets rows as objects", () => {
    const { database, prepare, original } = connection();
    database.exec(`INSERT INTO item VALUES ('a', 1)`);
    const sql = `SELECT "id" FROM item`;
    expect(prepare(sql).bind([]).raw().all()).toEqual([["a"]]);
    expect((original(sql) as Database.Statement).all()).toEqual([{ id: "a" }]);
  });

  it("runs a statement without parameters (BEGIN, COMMIT) and a write through bind([])", () => {
    const { database, prepare } = connection();
    prepare("BEGIN").run();
    prepare(`INSERT INTO item VALUES ('x', 9)`).bind([]).run();
    prepare("COMMIT").run();
    expect(database.prepare(`SELECT count(*) AS c FROM item`).get()).toEqual({ c: 1n });
  });

  it("keeps at most STATEMENT_CACHE_SIZE statements, dropping the least recently used", () => {
    const { prepare, prepared } = connection();
    const sqlOf = (i: number) => `SELECT ${i} AS n`;
    for (let i = 0; i < STATEMENT_CACHE_SIZE; i++) prepare(sqlOf(i));
    prepare(sqlOf(0)); // used again: now the most recent
    prepare(sqlOf(STATEMENT_CACHE_SIZE)); // evicts sqlOf(1)
    expect(prepared()).toBe(STATEMENT_CACHE_SIZE + 1);
    prepare(sqlOf(0));
    expect(prepared()).toBe(STATEMENT_CACHE_SIZE + 1);
    prepare(sqlOf(1));
    expect(prepared()).toBe(STATEMENT_CACHE_SIZE + 2);
  });

  it("answers a failing statement's error at the call, as the adapter expects", () => {
    const { prepare } = connection();
    prepare(`INSERT INTO item VALUES (?, ?)`).bind(["a", 1]).run();
    expect(() => prepare(`INSERT INTO item VALUES (?, ?)`).bind(["a", 2]).run()).toThrow(/UNIQUE/);
    expect(() => prepare(`SELECT nope FROM item`)).toThrow(/no such column/);
  });
});
