// latchkey_active_sessions: unexpired sessions, one count at start-up and then once a minute per process, never
// per scrape or request (a scrape must answer from memory, during a database outage too). Only with METRICS_PORT.
import { db } from "~/db.server";
import { metrics, metricsEnabled } from "~/observability/metrics.server";

const COUNT_EVERY_MS = 60_000;

async function countActiveSessions(): Promise<void> {
  // A failed count keeps the last value; the failure itself is counted where the query failed (database errors).
  const count = await db.session.count({ where: { expiresAt: { gt: new Date() } } }).catch(() => null);
  if (count !== null) metrics.activeSessions(count);
}

let started = false;

/** Called once the server listens (the database is migrated by then). */
export function startCountingActiveSessions(): void {
  if (!metricsEnabled || started) return;
  started = true;
  void countActiveSessions();
  setInterval(() => void countActiveSessions(), COUNT_EVERY_MS).unref();
}
