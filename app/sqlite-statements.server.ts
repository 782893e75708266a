// Prepared statements kept on Prisma's SQLite connection, by SQL text (issue 39: the quiet sign-in's cost).
// The better-sqlite3 adapter prepares every query afresh — SQLite parses and plans it each time, about a tenth
// of a millisecond a statement, and a sign-in makes eight — and binds its parameters with `bind()`, which fixes
// them on the statement for good. Here the statement is prepared once and each call gets a view that runs it
// with that call's parameters instead. Bounded (least recently used out), since raw SQL may vary without end.
// SQLite re-plans a kept statement by itself when the schema changes.
export const STATEMENT_CACHE_SIZE = 500;

type Parameters = unknown[];

/** The parts of a better-sqlite3 statement the adapter uses. */
export interface SqliteStatement {
  reader: boolean;
  run(...parameters: unknown[]): unknown;
  all(...parameters: unknown[]): unknown[];
  raw(on?: boolean): SqliteStatement;
  columns(): unknown[];
}

export interface PreparingConnection {
  prepare(sql: string): unknown;
}

/** What `prepare` now answers: the adapter calls `.bind(args)` on it, or `.run()` for BEGIN. */
export interface CachedStatement {
  bind(parameters: Parameters): BoundStatement;
  run(): unknown;
}

interface BoundStatement {
  reader: boolean;
  run(): unknown;
  columns(): unknown[];
  raw(): { all(): unknown[] };
}

/** Replaces `connection.prepare` with a caching one; returns the original for whoever needs a real statement. */
export function cachePreparedStatements(connection: PreparingConnection): (sql: string) => unknown {
  const prepare = connection.prepare.bind(connection);
  const cache = new Map<string, SqliteStatement>();
  connection.prepare = (sql: string): CachedStatement => {
    let statement = cache.get(sql);
    if (statement) {
      cache.delete(sql); // most recently used last
    } else {
      statement = prepare(sql) as SqliteStatement;
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
    }
    cache.set(sql, statement);
    return viewOf(statement);
  };
  return prepare;
}

function viewOf(statement: SqliteStatement): CachedStatement {
  return {
    bind: (parameters) => boundTo(statement, parameters),
    run: () => statement.run(),
  };
}

function boundTo(statement: SqliteStatement, parameters: Parameters): BoundStatement {
  const args = parameters.length > 0 ? [parameters] : [];
  return {
    reader: statement.reader,
    run: () => statement.run(...args),
    columns: () => statement.columns(),
    raw: () => ({
      all: () => {
        // Raw mode is a setting of the statement: off again after, for the next caller of the same SQL.
        statement.raw(true);
        try {
          return statement.all(...args);
        } finally {
          statement.raw(false);
        }
      },
    }),
  };
}
