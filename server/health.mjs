// GET /health/live and /health/ready on the public port (docs/decisions/064-health-probes-and-containers.md),
// answered here before the OpenID provider, the API dispatch and express + Remix: no rate limit, no session, no
// page. Liveness checks nothing (a database outage must not get every instance restarted); readiness asks the
// build's `health` hooks (app/health/dependencies.server.ts), each bounded in time, and reuses a result for 2 s.
// The body names checks only: hosts, URLs and errors go to the log, at warn.
import { setCommonHeaders } from "./common-headers.mjs";

export const LIVE_PATH = "/health/live";
export const READY_PATH = "/health/ready";

/** A result this young is answered again without asking the dependencies (probes from several balancers). */
const RESULT_REUSE_MS = 2_000;
/** `SELECT 1` and the migrations query each; the probe answers within 3 s whatever the database does. */
const DATABASE_TIMEOUT_MS = 2_000;
const REDIS_TIMEOUT_MS = 1_000;
/** A dependency call still unanswered after this long is given up on (see boundedCheck). */
const ABANDON_AFTER_MS = 10_000;

/**
 * @param {{
 *   hooks: import("../app/http/server-contract").HealthHooks,
 *   expectedMigrations: string[],
 *   strictTransport: boolean,
 *   log?: { warn(message: string): void, info(message: string): void },
 *   onFailure?: (dependency: "database" | "redis", timedOut: boolean) => void,
 * }} options
 *   `expectedMigrations`: the migration folders shipped with this build (what `npm start` applies);
 *   `onFailure`: called once per failed database or Redis operation of the probe, `timedOut` when it got no
 *   answer in time (the error counters; the build's `health.countFailure`)
 */
export function createHealth({ hooks, expectedMigrations, strictTransport, log = consoleLog, onFailure = () => {} }) {
  const database = boundedCheck(() => hooks.selectOne(), DATABASE_TIMEOUT_MS);
  const migrations = boundedCheck(async () => {
    const finished = new Set(await hooks.finishedMigrations());
    const missing = expectedMigrations.filter((name) => !finished.has(name));
    if (missing.length > 0) throw new NotMigrated(`not applied: ${missing.join(", ")}`);
  }, DATABASE_TIMEOUT_MS);
  const redis = hooks.redisPing ? boundedCheck(hooks.redisPing, REDIS_TIMEOUT_MS) : null;

  /** What each check last reported, so the log says when it goes down or comes back, not at every probe. */
  const lastReport = new Map();
  function report(name, error) {
    const text = error ? `DOWN: ${error.message}` : "UP";
    const before = lastReport.get(name);
    if (before === text || (before === undefined && !error)) return;
    lastReport.set(name, text);
    if (error) log.warn(`[latchkey] readiness: ${name} is ${text}`);
    else log.info(`[latchkey] readiness: ${name} is UP again`);
  }

  async function run(name, check, dependency) {
    try {
      await check();
      report(name, null);
      return { name, status: "UP" };
    } catch (error) {
      report(name, error);
      if (!(error instanceof NotMigrated)) onFailure(dependency, error instanceof TimedOut);
      return { name, status: "DOWN" };
    }
  }

  async function evaluate() {
    const checks = await Promise.all([
      run("database", database, "database"),
      run("migrations", migrations, "database"),
      ...(redis ? [run("redis", redis, "redis")] : []),
    ]);
    // Redis is reported but does not gate: Latchkey serves without it (ADR 006, 024), and a shared Redis outage
    // would otherwise take every instance out of the balancer at once.
    const gating = checks.filter((check) => check.name !== "redis");
    return { status: gating.every((check) => check.status === "UP") ? "UP" : "DOWN", checks };
  }

  let last = null;
  let evaluating = null;
  /** @returns {Promise<{ status: "UP" | "DOWN", checks: { name: string, status: "UP" | "DOWN" }[] }>} */
  function readiness() {
    if (last && Date.now() - last.at < RESULT_REUSE_MS) return Promise.resolve(last.result);
    evaluating ??= evaluate()
      .then((result) => {
        last = { at: Date.now(), result };
        return result;
      })
      .finally(() => {
        evaluating = null;
      });
    return evaluating;
  }

  /** The probe a request asks for (LIVE_PATH or READY_PATH, its route in the request log), or null. */
  function match(req) {
    if (req.method !== "GET" && req.method !== "HEAD") return null;
    const path = pathOf(req.url);
    return path === LIVE_PATH || path === READY_PATH ? path : null;
  }

  /** Answers the probe `match` found. */
  function handle(probe, req, res) {
    if (probe === LIVE_PATH) {
      answer(req, res, 200, { status: "UP" });
      return;
    }
    readiness().then(
      (result) => answer(req, res, result.status === "UP" ? 200 : 503, result),
      (error) => {
        log.warn(`[latchkey] readiness: ${error.message}`);
        answer(req, res, 503, { status: "DOWN", checks: [] });
      },
    );
  }

  function answer(req, res, status, body) {
    const text = JSON.stringify(body);
    setCommonHeaders(res, strictTransport);
    res.writeHead(status, {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Length": Buffer.byteLength(text),
      "Cache-Control": "no-store",
    });
    res.end(req.method === "HEAD" ? undefined : text);
  }

  return { match, handle, readiness };
}

/** A missing migration: the database answered, so it counts as no database error. */
class NotMigrated extends Error {}
/** No answer within a check's time (the dependency's client never saw an error to count). */
class TimedOut extends Error {}

/**
 * `run`, failing after `timeoutMs`. While an earlier call is still waiting on the dependency, a new one waits on
 * that same call instead of starting another: a database that stopped answering collects one hung query, not
 * one per probe. A call still waiting after ABANDON_AFTER_MS is left to settle by itself and a fresh one
 * started, so a connection that will never answer (a partition) cannot hold readiness DOWN once the database is
 * back.
 */
function boundedCheck(run, timeoutMs) {
  let pending = null;
  let startedAt = 0;
  return () => {
    if (!pending || Date.now() - startedAt > ABANDON_AFTER_MS) {
      startedAt = Date.now();
      const current = Promise.resolve()
        .then(run)
        .finally(() => {
          if (pending === current) pending = null;
        });
      current.catch(() => {}); // an abandoned call's failure is nobody's to handle
      pending = current;
    }
    let timer;
    const timeout = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new TimedOut(`no answer within ${timeoutMs} ms`)), timeoutMs);
    });
    return Promise.race([pending, timeout]).finally(() => clearTimeout(timer));
  };
}

/** A request target's path, without its query. */
function pathOf(target) {
  const url = String(target ?? "");
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

const consoleLog = {
  warn: (message) => console.warn(message),
  info: (message) => console.log(message),
};
