// Deletes what has expired — sessions, verification tokens, finished rate-limit windows, old security events — so tables do not
// grow without bound. Runs in every instance; the deletes are idempotent, so instances need no coordination.
import { deleteExpiredProviderRows } from "~/auth/oidc-provider/adapter.server";
import { deleteRetiredKeys } from "~/auth/oidc-provider/keys.server";
import { deleteStaleRateLimits } from "~/auth/rate-limit/limits.server";
import { deleteOldSecurityEvents } from "~/auth/security-events/events.server";
import { DEVICE_COOKIE_SECONDS, forgetDevicesUnseenSince } from "~/auth/sign-in/known-device.server";
import { deleteExpiredTokens } from "~/auth/verification.server";
import { db } from "~/db.server";

const EVERY_TEN_MINUTES_MS = 10 * 60 * 1000;
const ONE_DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Expired sessions go SESSION_BATCH at a time (ADR 045): each batch is a short statement of its own, named by
 * id, so the change feed announces just those ids — the app's hook sees `id: {in: [...]}`, and PostgreSQL's
 * statement trigger names up to 100 rows before it falls back to "everything changed". A backlog of a million
 * never empties every instance's session cache, and never holds one long delete.
 */
export const SESSION_BATCH = 100;
/** Batches in one run at most (100 000 sessions); what is left waits for the next run, ten minutes on. */
export const SESSION_BATCHES_PER_RUN = 1000;

/** Deletes sessions expired before `now` in batches of `batch`, at most `maxBatches` of them; returns how many went. */
export async function deleteExpiredSessions(options: { now?: Date; batch?: number; maxBatches?: number } = {}): Promise<number> {
  const { now = new Date(), batch = SESSION_BATCH, maxBatches = SESSION_BATCHES_PER_RUN } = options;
  let deleted = 0;
  for (let round = 0; round < maxBatches; round++) {
    // The expiresAt index gives the oldest first; a session extended meanwhile is re-checked by the delete.
    const ids = (await db.session.findMany({ where: { expiresAt: { lt: now } }, select: { id: true }, orderBy: { expiresAt: "asc" }, take: batch })).map(
      (s) => s.id,
    );
    if (ids.length === 0) break;
    deleted += (await db.session.deleteMany({ where: { id: { in: ids }, expiresAt: { lt: now } } })).count;
    if (ids.length < batch) break;
  }
  return deleted;
}

export async function deleteExpiredRows(): Promise<void> {
  await deleteExpiredSessions();
  await deleteExpiredTokens();
  await deleteStaleRateLimits(ONE_DAY_MS);
  await forgetDevicesUnseenSince(new Date(Date.now() - DEVICE_COOKIE_SECONDS * 1000));
  await deleteExpiredProviderRows();
  await deleteRetiredKeys();
  await deleteOldSecurityEvents(); // AUTH_SECURITY_EVENT_DAYS (ADR 048)
}

const state = globalThis as unknown as { latchkeyHousekeeping?: NodeJS.Timeout };

/** Starts the periodic clean-up once per process; the timer never keeps the process alive. */
export function startHousekeeping(): void {
  if (state.latchkeyHousekeeping) return;
  state.latchkeyHousekeeping = setInterval(() => {
    deleteExpiredRows().catch((error) => console.error("[latchkey] housekeeping failed:", error.message));
  }, EVERY_TEN_MINUTES_MS);
  state.latchkeyHousekeeping.unref();
}
