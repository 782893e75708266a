// latchkey_database_errors_total: every query through Prisma's driver adapter that failed for want of the
// database (refused, lost, timed out), the readiness probe's `SELECT 1` included, since it goes through the same
// client. A query the database answered with a refusal of its own (a unique index, a foreign key) is no such
// failure. Wrapped only with METRICS_PORT: without it the adapter is untouched (ADR 062).
import { incrementDatabaseErrors, metricsEnabled } from "~/observability/metrics.server";

/** Driver-adapter error kinds that mean the database could not be used (@prisma/driver-adapter-utils). */
const UNAVAILABLE = new Set([
  "GenericJs", // a JavaScript error under the driver: a refused or reset socket
  "DatabaseNotReachable",
  "DatabaseDoesNotExist",
  "DatabaseAccessDenied",
  "AuthenticationFailed",
  "ConnectionClosed",
  "TlsConnectionError",
  "TooManyConnections",
  "SocketTimeout",
]);
/** PostgreSQL classes: 08 connection exception, 53 insufficient resources, 57 operator intervention (shutdown). */
const POSTGRES_UNAVAILABLE = /^(08|53|57)/;
/** SQLite primary codes: BUSY, LOCKED, IOERR, CORRUPT, FULL, CANTOPEN. */
const SQLITE_UNAVAILABLE = new Set([5, 6, 10, 11, 13, 14]);

/** Whether an adapter's error means the database failed, not that it refused this query. */
export function isDatabaseFailure(error: unknown): boolean {
  const cause = (error as { cause?: { kind?: unknown; code?: unknown; extendedCode?: unknown } } | null)?.cause;
  if (error instanceof Error && error.name !== "DriverAdapterError") return true; // refused socket, timer, pool
  if (!cause || typeof cause.kind !== "string") return true;
  if (UNAVAILABLE.has(cause.kind)) return true;
  if (cause.kind === "postgres") return typeof cause.code === "string" && POSTGRES_UNAVAILABLE.test(cause.code);
  if (cause.kind === "sqlite") return typeof cause.extendedCode === "number" && SQLITE_UNAVAILABLE.has(cause.extendedCode & 0xff);
  return false;
}

type Queryable = { queryRaw(...args: never[]): Promise<unknown>; executeRaw(...args: never[]): Promise<unknown> };

function counting<T extends (...args: never[]) => Promise<unknown>>(run: T): T {
  return ((...args: never[]) =>
    run(...args).catch((error: unknown) => {
      if (isDatabaseFailure(error)) incrementDatabaseErrors();
      throw error;
    })) as T;
}

/** The opened adapter (and each transaction it starts), its failures counted. Unchanged when metrics are off. */
export function countingDatabaseFailures<A extends Queryable & { startTransaction?: (...args: never[]) => Promise<Queryable> }>(adapter: A): A {
  if (!metricsEnabled) return adapter;
  adapter.queryRaw = counting(adapter.queryRaw.bind(adapter));
  adapter.executeRaw = counting(adapter.executeRaw.bind(adapter));
  if (adapter.startTransaction) {
    const start = adapter.startTransaction.bind(adapter);
    adapter.startTransaction = counting(async (...args: never[]) => {
      const transaction = await start(...args);
      transaction.queryRaw = counting(transaction.queryRaw.bind(transaction));
      transaction.executeRaw = counting(transaction.executeRaw.bind(transaction));
      return transaction;
    }) as typeof start;
  }
  return adapter;
}
