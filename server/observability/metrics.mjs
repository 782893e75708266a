// The process's one metrics registry (prom-client, issue 40), made only when METRICS_PORT is set. Every family
// is declared here, at start-up, with its exact name and labels; label values come from fixed sets or the route
// table, and a child is bound once and kept, so a request costs one histogram observation on a bound child.
// The app bundle records through the recorder this module puts on `globalThis` (ADR 062): server/*.mjs and
// build/index.js are separate module graphs, and this way both write to this one registry.
import client from "prom-client";

/** Where the recorder lives for the app bundle (app/observability/metrics.server.ts reads it). */
export const METRICS_GLOBAL = Symbol.for("latchkey.metrics");

export const SIGN_IN_METHODS = ["password", "username", "email_otp", "passkey", "social", "verification_link"];
export const SIGN_IN_OUTCOMES = ["success", "failure", "locked", "two_factor_required", "two_factor_failure"];
export const SIGN_UP_METHODS = ["password", "email_otp", "passkey", "social"];
export const MAIL_OUTCOMES = ["sent", "failed"];
/** Methods a metric names; anything else node:http parsed (TRACE, PROPFIND…) is one value. */
const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];
const OTHER = "other";

/** Seconds: a memory read answers in well under a millisecond, a sign-in's scrypt takes a tenth of a second. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * @param {{ version: string, cluster?: boolean }} options `cluster`: a WEB_CONCURRENCY worker, which must
 *   construct an AggregatorRegistry to answer the primary's requests for its metrics
 */
export function createMetrics({ version, cluster = false }) {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const buildInfo = new client.Gauge({
    name: "latchkey_build_info",
    help: "Always 1; the version of Latchkey running.",
    labelNames: ["version"],
    registers,
    aggregator: "first",
  });
  buildInfo.labels(version).set(1);

  const requestDuration = new client.Histogram({
    name: "latchkey_http_request_duration_seconds",
    help: "Requests on the public port by method, route template and status code, in seconds until the answer finished.",
    labelNames: ["method", "route", "status"],
    buckets: DURATION_BUCKETS,
    registers,
  });
  const signIns = new client.Counter({
    name: "latchkey_sign_ins_total",
    help: "Sign-in attempts by first-factor method and outcome (a request the rate limit refused is no attempt).",
    labelNames: ["method", "outcome"],
    registers,
  });
  const signUps = new client.Counter({ name: "latchkey_sign_ups_total", help: "Accounts created, by method.", labelNames: ["method"], registers });
  const mails = new client.Counter({
    name: "latchkey_mails_total",
    help: "Mails handed to the SMTP server, by template and how it answered.",
    labelNames: ["kind", "outcome"],
    registers,
  });
  const rateLimitRefusals = new client.Counter({
    name: "latchkey_rate_limit_refusals_total",
    help: "429 answers, by route template.",
    labelNames: ["route"],
    registers,
  });
  const sessionLookups = new client.Counter({
    name: "latchkey_session_cache_lookups_total",
    help: "Session reads, by whether this process's session cache answered (hit) or the database did (miss).",
    labelNames: ["result"],
    registers,
  });
  const databaseErrors = new client.Counter({
    name: "latchkey_database_errors_total",
    help: "Database operations that failed for want of the database (refused, lost, timed out), readiness probes included.",
    registers,
  });
  const redisErrors = new client.Counter({
    name: "latchkey_redis_errors_total",
    help: "Redis operations and connections that failed (refused, lost, timed out), readiness probes included.",
    registers,
  });
  const activeSessions = new client.Gauge({
    name: "latchkey_active_sessions",
    help: "Unexpired sessions in the database, counted at most once a minute per process.",
    registers,
    aggregator: "max",
  });

  // Fixed sets are bound (and shown at 0) now, so a dashboard's rate() has a series before the first event.
  const signInChildren = new Map();
  for (const method of SIGN_IN_METHODS) {
    for (const outcome of SIGN_IN_OUTCOMES) {
      signIns.inc({ method, outcome }, 0);
      signInChildren.set(`${method} ${outcome}`, signIns.labels(method, outcome));
    }
  }
  const signUpChildren = new Map(SIGN_UP_METHODS.map((method) => [method, signUps.labels(method)]));
  for (const method of SIGN_UP_METHODS) signUps.inc({ method }, 0);
  for (const result of ["hit", "miss"]) sessionLookups.inc({ result }, 0);
  const cacheHit = sessionLookups.labels("hit");
  const cacheMiss = sessionLookups.labels("miss");
  const mailChildren = new Map();
  const refusalChildren = new Map();
  /** route → (method index × 1000 + status) → bound histogram child. */
  const durationChildren = new Map();

  function durationChild(method, route, status) {
    let byRoute = durationChildren.get(route);
    if (!byRoute) durationChildren.set(route, (byRoute = new Map()));
    const methodIndex = METHODS.indexOf(method);
    const key = (methodIndex === -1 ? METHODS.length : methodIndex) * 1000 + status;
    let child = byRoute.get(key);
    if (!child) byRoute.set(key, (child = requestDuration.labels(methodIndex === -1 ? OTHER : method, route, String(status))));
    return child;
  }

  const recorder = {
    /** A finished request on the public port (server/observability/requests.mjs). */
    request(method, route, status, seconds) {
      durationChild(method, route, status).observe(seconds);
      if (status === 429) {
        let child = refusalChildren.get(route);
        if (!child) refusalChildren.set(route, (child = rateLimitRefusals.labels(route)));
        child.inc();
      }
    },
    signIn(method, outcome) {
      signInChildren.get(`${method} ${outcome}`)?.inc();
    },
    signUp(method) {
      signUpChildren.get(method)?.inc();
    },
    /** `kind` is a template's name (app/email/templates.server.ts), a fixed set. */
    mail(kind, outcome) {
      if (!MAIL_OUTCOMES.includes(outcome)) return;
      const key = `${kind} ${outcome}`;
      let child = mailChildren.get(key);
      if (!child) mailChildren.set(key, (child = mails.labels(kind, outcome)));
      child.inc();
    },
    sessionLookup(hit) {
      (hit ? cacheHit : cacheMiss).inc();
    },
    databaseError() {
      databaseErrors.inc();
    },
    redisError() {
      redisErrors.inc();
    },
    activeSessions(count) {
      activeSessions.set(count);
    },
  };

  if (cluster) {
    // A worker answers the primary's requests with this registry (prom-client listens once constructed).
    new client.AggregatorRegistry();
    client.AggregatorRegistry.setRegistries([registry]);
  }
  return { registry, recorder };
}

/** The primary of WEB_CONCURRENCY=N: the workers' registries summed, gauges as their `aggregator` says. */
export function createClusterCollector() {
  const aggregator = new client.AggregatorRegistry();
  return { contentType: aggregator.contentType, metrics: () => aggregator.clusterMetrics() };
}

/** One process's registry, as the metrics listener reads it. */
export function singleProcessCollector(registry) {
  return { contentType: registry.contentType, metrics: () => registry.metrics() };
}
