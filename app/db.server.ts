// One Prisma client for the process, on SQLite or PostgreSQL as DATABASE_URL says (chosen at start-up; both
// clients are generated at install). See docs/decisions/001-stack-and-prisma.md.
import { closeSync, existsSync, mkdirSync, openSync } from "node:fs";
import path from "node:path";
import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import type { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient as SqliteClient } from "~/generated/prisma-sqlite/client";
import { PrismaClient as PostgresClient } from "~/generated/prisma-postgres/client";
import { env } from "~/env.server";
import { changeFeed } from "~/change-feed/feed.server";
import { withChangeAnnouncements } from "~/change-feed/prisma-hooks.server";
import { postgresTransport, redisTransport, sqliteTransport, type SqliteConnection } from "~/change-feed/transports.server";
import { postgresListener } from "~/postgres-listener.server";
import { countingDatabaseFailures } from "~/observability/database-errors.server";
import { cachePreparedStatements } from "~/sqlite-statements.server";

export type { User, Session, Account, Verification, Organization, Member, Invitation, Passkey, Team, TeamMember, OrganizationRole } from "~/generated/prisma-sqlite/client";
export { Prisma } from "~/generated/prisma-sqlite/client";
export { afterCommit } from "~/change-feed/prisma-hooks.server";

/** The two generated clients share one model API; the SQLite one's types stand for both. */
export type Db = SqliteClient;
export type Transaction = Parameters<Parameters<Db["$transaction"]>[0]>[0];

export const databaseKind: "sqlite" | "postgres" = /^postgres(ql)?:\/\//.test(env.DATABASE_URL ?? "")
  ? "postgres"
  : "sqlite";

/**
 * The client, with the hooks that announce every session, user and organization write on the change feed of
 * every process (app/change-feed/; the session cache listens: docs/decisions/024-session-cache-and-invalidation.md),
 * and the transport those announcements travel by.
 */
function createClient(): Db {
  if (databaseKind === "postgres") {
    // The adapter (and pg under it) is loaded when Prisma first connects, so a SQLite deployment never loads
    // it (docs/decisions/026-load-what-is-used.md).
    const adapter = {
      provider: "postgres",
      adapterName: "@prisma/adapter-pg",
      connect: async () => {
        const { PrismaPg: Factory } = await import("@prisma/adapter-pg");
        return countingDatabaseFailures(await new Factory({ connectionString: env.DATABASE_URL }).connect());
      },
    } as PrismaPg;
    const base = new PostgresClient({ adapter }) as unknown as Db;
    changeFeed.use(
      env.REDIS_URL
        ? redisTransport(env.REDIS_URL)
        : postgresTransport(postgresListener(env.DATABASE_URL!), (channel, payload) => base.$executeRaw`SELECT pg_notify(${channel}, ${payload})`),
    );
    return withChangeAnnouncements(base);
  }
  const file = env.DATABASE_URL
    ? path.resolve(process.cwd(), env.DATABASE_URL.slice("file:".length).split("?")[0])
    : path.join(process.cwd(), "data", "app.db");
  // Password hashes and session tokens live here: a file the driver would create is made owner-only first.
  if (!existsSync(file)) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    closeSync(openSync(file, "a", 0o600));
  }
  // Prisma's own connection, kept so the change feed can ask it whether anyone else has committed.
  let connection: SqliteConnection | null = null;
  const factory = new PrismaBetterSQLite3({ url: `file:${file}`, timeout: 10_000 });
  const adapter = {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const opened = await factory.connect();
      const client = (opened as unknown as { client?: SqliteConnection }).client ?? null;
      beginImmediately(opened as unknown as { client?: { prepare(sql: string): unknown } });
      // The change feed keeps its one statement itself, so it is handed the connection's own prepare.
      if (client) connection = { prepare: cachePreparedStatements(client) as SqliteConnection["prepare"] };
      return countingDatabaseFailures(opened);
    },
    connectToShadowDb: () => factory.connectToShadowDb(),
  } as typeof factory;
  changeFeed.use(sqliteTransport(file, () => connection));
  return withChangeAnnouncements(new SqliteClient({ adapter }));
}

/**
 * Transactions on SQLite start with BEGIN IMMEDIATE, not the adapter's plain (deferred) BEGIN: a deferred
 * transaction that reads and then writes fails with SQLITE_BUSY when another process (WEB_CONCURRENCY > 1, a
 * second instance on the same file) committed in between, and the busy timeout cannot help it, since its snapshot
 * is already stale. IMMEDIATE takes the one write lock first and waits its turn (docs/decisions/053-sqlite-begin-immediate.md).
 */
function beginImmediately(adapter: { client?: { prepare(sql: string): unknown } }): void {
  const client = adapter.client;
  if (!client) throw new Error("the SQLite adapter no longer exposes its connection: check beginImmediately");
  const prepare = client.prepare.bind(client);
  client.prepare = (sql: string) => prepare(sql === "BEGIN" ? "BEGIN IMMEDIATE" : sql);
}

const globalForDb = globalThis as unknown as { latchkeyDb?: Db };
export const db: Db = (globalForDb.latchkeyDb ??= createClient());

/**
 * What the database refused, for raw SQL too: a model query fails with its own code (P2002, P2003), a
 * `$queryRaw`/`$executeRaw` with P2010 and the driver adapter's kind of error underneath.
 */
function refusalOf(error: unknown): { code?: string; kind?: string } {
  if (typeof error !== "object" || error === null) return {};
  const { code, meta } = error as { code?: string; meta?: { driverAdapterError?: { cause?: { kind?: string } } } };
  return { code, kind: meta?.driverAdapterError?.cause?.kind };
}

/** True when a write failed on a unique constraint (two requests racing for the same e-mail, slug, …). */
export function isUniqueViolation(error: unknown): boolean {
  const { code, kind } = refusalOf(error);
  return code === "P2002" || kind === "UniqueConstraintViolation";
}

/** True when a write refers to a row that is gone (e.g. a user deleted by a concurrent request). */
export function isForeignKeyViolation(error: unknown): boolean {
  const { code, kind } = refusalOf(error);
  return code === "P2003" || kind === "ForeignKeyConstraintViolation";
}

/** True when an update/delete found no row (e.g. a token consumed a moment earlier by a concurrent request). */
export function isRecordNotFound(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: string }).code === "P2025";
}
