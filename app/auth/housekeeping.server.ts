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

export async function deleteExpiredRows(): Promise<void> {
  await db.session.deleteMany({ where: { expiresAt: { lt: new Date() } } });
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
