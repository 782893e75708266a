// What the readiness probe asks of this process's dependencies (docs/decisions/064-health-probes-and-containers.md):
// a `SELECT 1` through the Prisma client requests use, the names of the migrations the database has finished, and
// a Redis PING when REDIS_URL is set. Timeouts, caching, logging and the HTTP answer are server/health.mjs's.
import type { Redis } from "ioredis";
import { databaseKind, db } from "~/db.server";
import { env } from "~/env.server";
import type { HealthHooks } from "~/http/server-contract";
import { incrementDatabaseErrors, incrementRedisErrors } from "~/observability/metrics.server";

/** Migrations the database has applied to the end (a failed one has no finished_at; a rolled-back one does not count). */
async function finishedMigrations(): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ migration_name: string }[]>(
    `SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL AND "rolled_back_at" IS NULL`,
  );
  return rows.map((row) => row.migration_name);
}

async function selectOne(): Promise<void> {
  await db.$queryRawUnsafe("SELECT 1");
}

/**
 * A connection of the probe's own, made at the first probe: the rate-limit and session-cache clients exist only
 * in some configurations. No offline queue, so a PING while Redis is away fails at once instead of waiting for a
 * reconnection; ioredis keeps reconnecting in the background, and the next probe sees Redis back.
 */
function redisPing(url: string): () => Promise<void> {
  let client: Promise<Redis> | null = null;
  return async () => {
    client ??= import("ioredis").then(({ Redis }) => {
      const connection = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 0, connectionName: "latchkey-health" });
      connection.on("error", () => {}); // what failed is reported by the probe's own PING
      return connection;
    });
    const connection = await client;
    // Right after start-up the connection may still be opening: give it the probe's time rather than fail at once.
    if (connection.status === "connecting" || connection.status === "connect") await onceReady(connection);
    const answer = await connection.ping();
    if (answer !== "PONG") throw new Error(`PING answered ${JSON.stringify(answer)}`);
  };
}

function onceReady(connection: Redis): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      connection.off("ready", done).off("error", done).off("end", done);
      resolve();
    };
    connection.once("ready", done).once("error", done).once("end", done);
  });
}

/**
 * A probe's failed operation, for latchkey_database_errors_total and latchkey_redis_errors_total (issue 40). The
 * database's errors are already counted where Prisma's driver adapter raises them, so only a query that got no
 * answer in time is counted here; the probe's Redis connection is its own, so every failure of it is.
 */
function countFailure(dependency: "database" | "redis", timedOut: boolean): void {
  if (dependency === "redis") incrementRedisErrors();
  else if (timedOut) incrementDatabaseErrors();
}

export const health: HealthHooks = {
  databaseKind,
  selectOne,
  finishedMigrations,
  redisPing: env.REDIS_URL ? redisPing(env.REDIS_URL) : null,
  countFailure,
};
