// What the app counts, recorded into the process's one registry (server/observability/metrics.mjs), which the
// server puts on `globalThis` before it loads the build (ADR 062). Without METRICS_PORT there is no recorder:
// every call below is an empty function, so metrics cost nothing when off.
import type { SignInMethod } from "~/auth/security-events/words";

export type SignInOutcome = "success" | "failure" | "locked" | "two_factor_required" | "two_factor_failure";
export type SignUpMethod = "password" | "email_otp" | "passkey" | "social";
export type { SignInMethod };

/** The recorder's app-facing half (the server records requests itself). */
export interface MetricsRecorder {
  signIn(method: SignInMethod, outcome: SignInOutcome): void;
  signUp(method: SignUpMethod): void;
  /** `kind`: the mail's template name; `outcome` as the SMTP server answered. */
  mail(kind: string, outcome: "sent" | "failed"): void;
  sessionLookup(hit: boolean): void;
  databaseError(): void;
  redisError(): void;
  activeSessions(count: number): void;
}

const METRICS_GLOBAL = Symbol.for("latchkey.metrics");

const nothing = () => {};
const OFF: MetricsRecorder = {
  signIn: nothing,
  signUp: nothing,
  mail: nothing,
  sessionLookup: nothing,
  databaseError: nothing,
  redisError: nothing,
  activeSessions: nothing,
};

const installed = (globalThis as { [METRICS_GLOBAL]?: MetricsRecorder })[METRICS_GLOBAL];

export const metrics: MetricsRecorder = installed ?? OFF;
/** Whether this process measures at all (METRICS_PORT set): work done only for a metric is skipped otherwise. */
export const metricsEnabled = installed !== undefined;

/** A database operation failed for want of the database (refused, lost, timed out): the readiness probe too. */
export function incrementDatabaseErrors(): void {
  metrics.databaseError();
}

/** A Redis operation or connection failed: the readiness probe too. */
export function incrementRedisErrors(): void {
  metrics.redisError();
}
