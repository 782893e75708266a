// `npm run bench [-- --postgres] [--duration=10] [--warmup=2] [--rounds=5] [--connections=50] [--dispatch=remix] [--attack=20]`
// (`npm run bench -- --scale`: the same server against a small and a large database, scripts/bench-scale.mjs)
//
// Measures, with autocannon from this process (sign-in and raw scrypt alike with loops that finish the calls they
// started), the figures issue 14 sets targets for, each as a ratio between
// servers started here on the same machine, the same kind of database and in the same run:
//   - a bare node:http server answering {"ok":true} (the floor) and Better Auth 1.7 (email + password, cookie
//     cache off, its own tables on a database of the same kind; scripts/lib/better-auth-bench-server.mjs);
//   - the built app (server.mjs) with its full route table; twice more serving nothing but /ok, with the full
//     table and with a handful of routes (LATCHKEY_BENCH_HANDFUL_ROUTES=1, a bench-only switch); and with the
//     rate limit on behind a trusted proxy;
//   - raw crypto.scrypt with the password parameters, in-process, as sign-in's floor.
// `--attack=SECONDS` (default 20; 0 leaves it out) is each phase of the "under attack" figure: the owner's sign-in
// and reads quiet, then under a credential-stuffing wave, here and on Better Auth (scripts/lib/bench-under-attack.mjs);
// `--attack-only` measures just that.
// `--dispatch=remix` serves the API through express + Remix's handler (the path before ADR 023), for a
// before/after comparison. It prints one table: each figure, its target and ✓/✗; then the raw figures.
// All servers run at once and the measurements take turns in rounds, so the load of a shared machine falls on
// the two sides of each ratio alike; each ratio is the median of its rounds' own, and the route-count pair
// (two servers that should cost the same) is measured in short slices side by side (measurePaired). Every
// measurement is bounded in time after a short warm-up; the script stops itself and removes its databases and
// servers whatever happens. Absolute figures vary by machine and
// run; the ratios are the point.
import autocannon from "autocannon";
import { createHmac, randomBytes, scrypt } from "node:crypto";
import { readFileSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import os from "node:os";
import { parseArgs } from "node:util";
import { ensureBuilt } from "./lib/build.mjs";
import { projectRoot } from "./lib/database-url.mjs";
import { createScratchDatabase } from "./lib/scratch-database.mjs";
import { freePort, spawnServer } from "./lib/spawn-server.mjs";
import { measureUnderAttack } from "./lib/bench-under-attack.mjs";

// `npm run bench -- --scale`: the large-data figures instead (scripts/bench-scale.mjs, ADR 044).
if (process.argv.includes("--scale")) {
  const { spawnSync } = await import("node:child_process");
  const rest = process.argv.slice(2).filter((arg) => arg !== "--scale");
  const scale = new URL("./bench-scale.mjs", import.meta.url).pathname;
  process.exit(spawnSync(process.execPath, [scale, ...rest], { stdio: "inherit" }).status ?? 1);
}

const { values: args } = parseArgs({
  options: {
    postgres: { type: "boolean", default: false },
    duration: { type: "string", default: "10" },
    warmup: { type: "string", default: "2" },
    connections: { type: "string", default: "50" },
    dispatch: { type: "string", default: "direct" },
    rounds: { type: "string", default: "5" },
    attack: { type: "string", default: "20" },
    "attack-only": { type: "boolean", default: false },
  },
});
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
const ROUNDS = Number(args.rounds);
const ATTACK_SECONDS = Number(args.attack);
if (
  !(DURATION > 0 && WARMUP >= 0 && Number.isInteger(CONNECTIONS) && CONNECTIONS > 0 && Number.isInteger(ROUNDS) && ROUNDS > 0 && ATTACK_SECONDS >= 0) ||
  !["direct", "remix"].includes(args.dispatch)
) {
  console.error("usage: npm run bench -- [--postgres] [--duration=SECONDS] [--warmup=SECONDS] [--rounds=N] [--connections=N] [--dispatch=direct|remix] [--attack=SECONDS]");
  process.exit(2);
}
/** Sign-in and raw scrypt both run with two in flight, so their figures compare like for like. */
const SCRYPT_CONCURRENCY = 2;
/**
 * Sign-in and scrypt take ~100 ms a call: a round of them lasts at least this long, so one call more or less
 * in a round moves its rate by ~2 %, not the ~5 % of a 2-second round.
 */
const SLOW_ROUND_SECONDS = 5;
const SCRYPT = { N: 16384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 64;
const SECRET = "bench-secret-that-is-long-enough-for-hmac-0123456789";
const TAIL_CONNECTIONS = 200;
const SESSIONS_FOR_MEMORY = 10_000;
const MEMORY_READS = 20_000;

// ---------------------------------------------------------------------------------------------------------
// Clean-up that runs however the script ends: normally, on an error, on Ctrl-C, or when the time limit hits.

const cleanups = [];
let cleaningUp = null;
function cleanUp() {
  cleaningUp ??= (async () => {
    for (const fn of cleanups.reverse()) {
      try {
        await fn();
      } catch (error) {
        console.error(`[bench] clean-up: ${error.message}`);
      }
    }
  })();
  return cleaningUp;
}
async function exit(code) {
  await cleanUp();
  process.exit(code);
}
process.on("SIGINT", () => exit(130));
process.on("SIGTERM", () => exit(143));
// Eleven measurements of warm-up + duration each, plus generous time for a build, five server start-ups,
// 10 000 sessions and the set-up calls.
// Thirteen measurements, and the two servers' quiet and attacked phases.
// Fourteen, with the metrics pair (issue 40), whose 24 paired slices and warm-ups take longer than one measurement.
const METRICS_PAIR_SECONDS = 2 * WARMUP + 60;
const TIME_LIMIT_MS = (14 * (WARMUP + DURATION) + 4 * (ATTACK_SECONDS + 5) + 240 + METRICS_PAIR_SECONDS) * 1000;
setTimeout(() => {
  console.error(`[bench] still running after ${TIME_LIMIT_MS / 1000} s: stopping.`);
  exit(1);
}, TIME_LIMIT_MS).unref();

// ---------------------------------------------------------------------------------------------------------
// Databases and servers.

const kind = args.postgres ? "postgres" : "sqlite";
const kindName = args.postgres ? "PostgreSQL" : "SQLite";

async function scratchDatabase(options) {
  let database;
  try {
    database = await createScratchDatabase(kind, "latchkey_bench", options);
  } catch (error) {
    throw new Error(`${error.message}; set TEST_POSTGRES_URL or drop --postgres.`);
  }
  cleanups.push(database.drop);
  return database;
}

/** A server process on a free port with only the environment it is given, so nothing in this shell skews it. */
async function start(script, env, readyPath) {
  const server = await spawnServer({ host: "127.0.0.1", script, env, readyPath });
  const stop = () => server.stop("SIGTERM");
  cleanups.push(stop);
  return { ...server, stop };
}

function startApp(databaseUrl, extraEnv = {}) {
  return start("server.mjs", {
    AUTH_SECRET: SECRET,
    DATABASE_URL: databaseUrl,
    AUTH_RATE_LIMIT: "off",
    AUTH_COOKIE_CACHE_MAX_AGE: "off",
    ...(args.dispatch === "remix" ? { LATCHKEY_API_DISPATCH: "remix" } : {}),
    ...extraEnv,
  });
}

/** Resident memory of a process, in MB (Linux). */
function residentMegabytes(pid) {
  const match = readFileSync(`/proc/${pid}/status`, "utf8").match(/^VmRSS:\s+(\d+) kB/m);
  return match ? Number(match[1]) / 1024 : NaN;
}

// ---------------------------------------------------------------------------------------------------------
// Measuring.

function percentiles(samples) {
  const sorted = Float64Array.from(samples).sort();
  const at = (q) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] : NaN);
  return { p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}

function runAutocannon(options, onResponse) {
  return new Promise((resolve, reject) => {
    const instance = autocannon({ timeout: 10, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
    if (onResponse) instance.on("response", onResponse);
  });
}

/**
 * One round of an HTTP measurement: requests per second (counting only responses with the expected status) and
 * latencies in ms at full resolution (autocannon's own histogram rounds to whole milliseconds).
 */
async function httpRound({ url, method = "GET", headers = {}, body, requests, connections = CONNECTIONS, expectStatus = 200, tolerate = [] }, seconds) {
  const latencies = [];
  let answered = 0;
  let unexpected = 0;
  // Latencies are those of requests on established connections: each connection's first answer also waits for
  // its TCP set-up, and autocannon opens all of them at once at the start of a round, a storm no steady client
  // load has (at 200 connections it alone put p99 at 10–30× p50).
  const connected = new WeakSet();
  const started = performance.now();
  const result = await runAutocannon({ url, method, headers, body, requests, connections, duration: seconds }, (client, statusCode, _bytes, responseTime) => {
    if (statusCode === expectStatus) {
      answered += 1;
      if (connected.has(client)) latencies.push(responseTime);
      else connected.add(client);
    } else if (!tolerate.includes(statusCode)) unexpected += 1;
  });
  const problems = [];
  if (unexpected) problems.push(`${unexpected} responses were not ${expectStatus} (${JSON.stringify(result.statusCodeStats)})`);
  if (result.errors) problems.push(`${result.errors} connection errors, ${result.timeouts} timeouts`);
  return { rps: answered / ((performance.now() - started) / 1000), latencies, problems };
}

function scryptOnce(password, salt) {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, SCRYPT, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/**
 * `concurrency` loops calling `once` until the round's time is up, each finishing the call it started; the rate
 * is completed calls over the time until the last one finished. Slow operations (~100 ms) are measured this
 * way on both sides of a ratio: a load generator that drops its in-flight requests at the deadline would lose
 * about one of the ~20 calls a round makes.
 */
async function loopRound(concurrency, seconds, once) {
  const latencies = [];
  const end = performance.now() + seconds * 1000;
  const started = performance.now();
  const loop = async () => {
    while (performance.now() < end) {
      const t0 = performance.now();
      await once();
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { rps: latencies.length / ((performance.now() - started) / 1000), latencies, problems: [] };
}

/** One round of raw crypto.scrypt with the app's parameters, two calls in flight, on this process's thread pool. */
function scryptRound(_options, seconds) {
  const password = randomBytes(12).toString("hex");
  const salt = randomBytes(16).toString("hex");
  return loopRound(SCRYPT_CONCURRENCY, seconds, () => scryptOnce(password, salt));
}

/** Kept-alive connections for the slow POSTs, one pool per URL across rounds. */
const slowPostAgents = new Map();

/**
 * One round of a slow POST (sign-in), `connections` in flight on kept-alive connections, measured as scrypt is.
 * The requests go out through node:http, not fetch(): the load generator shares the two cores with the server
 * and the scrypt threads, and fetch() spent ~3.7 ms of CPU per call where node:http spends ~1 ms (1.3–2 ms
 * beside two scrypts, measured on this process): a cost the in-process scrypt loop it is compared with does
 * not pay, so it still weighs ~1 % against sign-in (ADR 023).
 */
async function slowPostRound({ url, headers, body, connections }, seconds) {
  if (!slowPostAgents.has(url)) slowPostAgents.set(url, new Agent({ keepAlive: true, maxSockets: connections }));
  const agent = slowPostAgents.get(url);
  const payload = Buffer.from(body);
  const once = () =>
    new Promise((resolve, reject) => {
      const request = httpRequest(url, { method: "POST", agent, headers: { ...headers, "content-length": String(payload.length) } }, (response) => {
        response.resume();
        response.on("error", reject);
        response.on("end", () => (response.statusCode === 200 ? resolve() : reject(new Error(`${url} answered ${response.statusCode}`))));
      });
      request.on("error", reject);
      request.end(payload);
    });
  return loopRound(connections, seconds, once);
}

/**
 * Every scenario in ROUNDS interleaved rounds, the order reversed every other round (A B C … C B A …): the two
 * sides of each ratio are listed next to each other, so they are measured seconds apart, and a drift in the
 * machine's speed during a round weighs on each side alike over two rounds. Each scenario is warmed up once;
 * its req/s is the median of its rounds, its latency percentiles are over all its requests, and its p99 ÷ p50
 * is the median of each round's own (pooling rounds taken under different machine loads would widen the spread
 * by the difference between rounds, which is not the server's tail). `ratio(a, b)` is the median of the
 * rounds' own a ÷ b: on a shared machine whose speed wanders by half between minutes, a ratio of two medians
 * taken at different moments moved by a tenth between runs of the same build, more than some targets' margin.
 */
async function measureInterleaved(scenarios) {
  const rounds = new Map(scenarios.map((scenario) => [scenario.key, []]));
  for (const scenario of scenarios) {
    console.log(`[bench] warming up: ${scenario.title}…`);
    if (WARMUP > 0) await scenario.run(scenario, WARMUP);
  }
  for (let round = 1; round <= ROUNDS; round++) {
    console.log(`[bench] round ${round} of ${ROUNDS}…`);
    const order = round % 2 === 1 ? scenarios : [...scenarios].reverse();
    for (const scenario of order) rounds.get(scenario.key).push(await scenario.run(scenario, Math.max(DURATION / ROUNDS, scenario.minRoundSeconds ?? 0)));
  }
  const results = Object.fromEntries(scenarios.map((scenario) => [scenario.key, summary(scenario, rounds.get(scenario.key))]));
  const ratio = (a, b) => median(rounds.get(a).map((round, i) => round.rps / rounds.get(b)[i].rps));
  return { results, ratio };
}

/**
 * A ÷ B for two servers that should cost the same per request (the route-count figure), from many short
 * slices side by side (A B, then B A, …): the median of each adjacent pair's own ratio. Two identical servers
 * measured against each other in 2 s rounds gave 0.66–1.34× round by round on this VM, and a median of five
 * such rounds could still land outside a ±10 % band; 24 pairs of 0.5 s slices gave medians of 0.97–1.01×.
 * Returns each side as measureInterleaved does, and the ratio.
 */
async function measurePaired(a, b, { pairs = 24, seconds = 0.5 } = {}) {
  for (const scenario of [a, b]) {
    console.log(`[bench] warming up: ${scenario.title}…`);
    if (WARMUP > 0) await scenario.run(scenario, WARMUP);
  }
  console.log(`[bench] ${a.title} against ${b.title}, ${pairs} pairs of ${seconds} s…`);
  const measured = { [a.key]: [], [b.key]: [] };
  const ratios = [];
  for (let pair = 0; pair < pairs; pair++) {
    for (const scenario of pair % 2 ? [b, a] : [a, b]) measured[scenario.key].push(await scenario.run(scenario, seconds));
    ratios.push(measured[a.key][pair].rps / measured[b.key][pair].rps);
  }
  const results = Object.fromEntries([a, b].map((scenario) => [scenario.key, summary(scenario, measured[scenario.key])]));
  return { results, ratio: median(ratios) };
}

/** A scenario's rounds as one row: median req/s, latency percentiles over every request, median p99 ÷ p50. */
function summary(scenario, rounds) {
  return {
    title: scenario.title,
    connections: scenario.connections ?? CONNECTIONS,
    rps: median(rounds.map((r) => r.rps)),
    tailSpread: median(rounds.map((r) => percentiles(r.latencies)).map(({ p50, p99 }) => p99 / p50)),
    ...percentiles(rounds.flatMap((r) => r.latencies)),
    problems: [...new Set(rounds.flatMap((r) => r.problems))],
  };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

// ---------------------------------------------------------------------------------------------------------
// The API calls that set the scene.

function cookieHeader(response) {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .filter((pair) => !pair.endsWith("="))
    .join("; ");
}

async function call(baseUrl, pathname, { method = "GET", body, cookie } = {}) {
  const response = await fetch(baseUrl + pathname, {
    method,
    headers: {
      Origin: baseUrl,
      ...(body ? { "Content-Type": "application/json" } : {}),
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${pathname} answered ${response.status}: ${text}`);
  return { response, json: JSON.parse(text) };
}

async function signUpAndIn(baseUrl) {
  const user = { name: "Bench User", email: `bench-${randomBytes(4).toString("hex")}@example.com`, password: randomBytes(12).toString("hex") };
  await call(baseUrl, "/api/auth/sign-up/email", { method: "POST", body: user });
  const { response } = await call(baseUrl, "/api/auth/sign-in/email", { method: "POST", body: { email: user.email, password: user.password } });
  const cookie = cookieHeader(response);
  const { json: session } = await call(baseUrl, "/api/auth/get-session", { cookie });
  if (session?.user?.email !== user.email) throw new Error(`get-session at ${baseUrl} did not return the signed-in user: ${JSON.stringify(session)}`);
  return { user, cookie };
}

/**
 * `count` more sessions for the signed-in user, written straight into the database as copies of the signed-in
 * session's row with new tokens (sign-in would cost a scrypt each), and their cookies, signed as the app signs.
 */
async function cloneSessions(databaseUrl, cookie, count) {
  const signed = decodeURIComponent(cookie.match(/latchkey\.session_token=([^;]+)/)?.[1] ?? "");
  const token = signed.slice(0, signed.lastIndexOf("."));
  const tokens = Array.from({ length: count }, () => randomBytes(24).toString("base64url").replace(/[-_]/g, "x"));
  const columns = `"userId", "expiresAt", "createdAt", "updatedAt", "ipAddress", "userAgent", "rememberMe"`;
  if (kind === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const db = new Database(databaseUrl.slice("file:".length));
    db.pragma("busy_timeout = 10000");
    const insert = db.prepare(`INSERT INTO "session" ("id", "token", ${columns}) SELECT ?, ?, ${columns} FROM "session" WHERE "token" = ?`);
    db.transaction(() => tokens.forEach((t) => insert.run(`bench${t}`, t, token)))();
    db.close();
  } else {
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query(
      `INSERT INTO "session" ("id", "token", ${columns}) SELECT 'bench' || t, t, ${columns} FROM "session", unnest($1::text[]) AS t WHERE "token" = $2`,
      [tokens, token],
    );
    await client.end();
  }
  const sign = (value) => `${value}.${createHmac("sha256", SECRET).update(`session\0${value}`).digest("base64url")}`;
  return tokens.map((t) => `latchkey.session_token=${sign(t)}`);
}

/** An IPv4 address per request: a client that is always under its limit. */
function distinctAddresses() {
  let n = 0;
  return (request) => {
    n += 1;
    request.headers = { ...request.headers, "x-forwarded-for": `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}` };
    return request;
  };
}

// ---------------------------------------------------------------------------------------------------------
// Report.

const fmt = {
  rps: (v) => (v >= 100 ? v.toFixed(0) : v.toFixed(1)),
  ms: (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)),
  ratio: (v) => (v >= 10 ? `${v.toFixed(1)}×` : `${v.toFixed(2)}×`),
};

function printColumns(header, lines, leftAligned) {
  const widths = header.map((_, i) => Math.max(header[i].length, ...lines.map((line) => line[i].length)));
  const render = (cells) => cells.map((cell, i) => (leftAligned.has(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ").trimEnd();
  console.log(render(header));
  console.log(widths.map((w) => "─".repeat(w)).join("  "));
  for (const line of lines) console.log(render(line));
}

// ---------------------------------------------------------------------------------------------------------

async function main() {
  process.chdir(projectRoot);
  ensureBuilt({ log: (message) => console.log(message.replace("[latchkey]", "[bench]")) });
  const cpus = os.cpus();
  console.log(
    `[bench] Node ${process.version}, ${cpus.length} × ${cpus[0]?.model.trim() ?? "CPU"}, ${kindName}, API through ` +
      `${args.dispatch === "remix" ? "express + Remix (LATCHKEY_API_DISPATCH=remix)" : "the direct dispatch"}; ` +
      `${DURATION} s per measurement after ${WARMUP} s warm-up, ${CONNECTIONS} connections.`,
  );
  const [load] = os.loadavg();
  if (load > cpus.length * 0.5) {
    console.warn(`[bench] the machine is busy (load average ${load.toFixed(1)} on ${cpus.length} CPUs): expect noisy figures.`);
  }
  const database = await scratchDatabase();
  const referenceDatabase = await scratchDatabase({ migrate: false });
  if (args["attack-only"]) {
    const attack = await measureAttacks(database, referenceDatabase);
    printColumns(["figure", "measured", "target", ""], attackTargets(attack.ours).map(([name, value, target, pass, format]) => [name, format(value), target, pass(value) ? "✓" : "✗"]), new Set([0, 2]));
    return printAttack(attack);
  }

  // Every server up first, so the measurements can take turns.
  console.log("[bench] starting a bare node:http server, Better Auth 1.7 and the app four ways…");
  const bare = await start("scripts/lib/bare-http-server.mjs", {}, "/");
  const reference = await start("scripts/lib/better-auth-bench-server.mjs", { DATABASE_URL: referenceDatabase.url, AUTH_SECRET: SECRET });
  const app = await startApp(database.url);
  // The route-count figure compares two servers that differ in nothing else: each serves only /ok. (Measured
  // on `app`, which also runs sign-ins and 200-connection reads, /ok carried that history's heap and JIT state.)
  const full = await startApp(database.url);
  const handful = await startApp(database.url, { LATCHKEY_BENCH_HANDFUL_ROUTES: "1" });
  // The refetch figure too is taken on a server of its own: after a few hundred sign-ins a server's signed-in
  // read slows by a tenth or more against /ok (V8 pretenures the allocation sites a sign-in's long-lived request
  // objects came from, and the read's shared code turns polymorphic; docs/performance.md), which is the
  // server's history, not the query string's cost. That cost is measured apart, on `app` after its sign-ins:
  // the refetch against a plain get-session, side by side.
  const fresh = await startApp(database.url);
  // Issue 40: the same server with METRICS_PORT set, for what metrics cost the signed-in read beside `fresh`.
  const metered = await startApp(database.url, { METRICS_PORT: String(await freePort()) });
  // Rate limit on, behind a trusted proxy: X-Forwarded-For says who the client is.
  const limited = await startApp(database.url, { AUTH_RATE_LIMIT: "on", TRUST_PROXY: "true" });
  const referenceUser = await signUpAndIn(reference.baseUrl);
  const { user, cookie } = await signUpAndIn(app.baseUrl);
  // As fetch() and browsers send a bodiless POST: with `Content-Length: 0` (autocannon would send no length).
  const signOut = { url: `${limited.baseUrl}/api/auth/sign-out`, method: "POST", headers: { origin: limited.baseUrl, "content-length": "0" } };

  const http = (key, title, options) => ({ key, title, run: httpRound, ...options });
  // The two sides of each ratio next to each other (see measureInterleaved): /ok beside the 429 flood and the
  // rate-limited route, get-session beside Better Auth's, scrypt beside sign-in.
  const { results, ratio } = await measureInterleaved([
    http("bareTail", `bare node:http, ${TAIL_CONNECTIONS} connections`, { url: `${bare.baseUrl}/`, connections: TAIL_CONNECTIONS }),
    http("bare", "bare node:http", { url: `${bare.baseUrl}/` }),
    http("flood", "POST /sign-out from one address, answered 429", {
      ...signOut,
      headers: { ...signOut.headers, "x-forwarded-for": "203.0.113.7" },
      expectStatus: 429,
      tolerate: [200], // the window's first 100, each time a round starts in a new 10-second window
    }),
    http("ok", "GET /api/auth/ok", { url: `${app.baseUrl}/api/auth/ok` }),
    http("underLimit", "POST /sign-out (rate-limited), every request from a new address", { ...signOut, requests: [{ setupRequest: distinctAddresses() }] }),
    http("session", "GET /get-session", { url: `${app.baseUrl}/api/auth/get-session`, headers: { cookie } }),
    http("referenceSession", "Better Auth 1.7 GET /get-session", { url: `${reference.baseUrl}/api/auth/get-session`, headers: { cookie: referenceUser.cookie } }),
    http("sessionTail", `GET /get-session, ${TAIL_CONNECTIONS} connections`, {
      url: `${app.baseUrl}/api/auth/get-session`,
      headers: { cookie },
      connections: TAIL_CONNECTIONS,
    }),
    { key: "scrypt", title: "crypto.scrypt, in-process", connections: SCRYPT_CONCURRENCY, run: scryptRound, minRoundSeconds: SLOW_ROUND_SECONDS },
    {
      key: "signIn",
      title: "POST /sign-in/email",
      run: slowPostRound,
      minRoundSeconds: SLOW_ROUND_SECONDS,
      url: `${app.baseUrl}/api/auth/sign-in/email`,
      connections: SCRYPT_CONCURRENCY,
      headers: { "content-type": "application/json", origin: app.baseUrl },
      body: JSON.stringify({ email: user.email, password: user.password }),
    },
    {
      key: "referenceSignIn",
      title: "Better Auth 1.7 POST /sign-in/email",
      run: slowPostRound,
      minRoundSeconds: SLOW_ROUND_SECONDS,
      url: `${reference.baseUrl}/api/auth/sign-in/email`,
      connections: SCRYPT_CONCURRENCY,
      headers: { "content-type": "application/json", origin: reference.baseUrl },
      body: JSON.stringify({ email: referenceUser.user.email, password: referenceUser.user.password }),
    },
  ]);
  const routeCount = await measurePaired(
    http("okFull", "GET /api/auth/ok, full route table, nothing else served", { url: `${full.baseUrl}/api/auth/ok` }),
    http("okHandful", "GET /api/auth/ok, a handful of routes, nothing else served", { url: `${handful.baseUrl}/api/auth/ok` }),
  );
  Object.assign(results, routeCount.results);
  // What Better Auth's client sends when it refetches: a query string must not take the read off its fast path
  // (issue 28). A 10 % band needs the paired slices, as the route-count figure does.
  const refetch = await measurePaired(
    http("sessionRefetch", "GET /get-session?disableCookieCache=true", { url: `${fresh.baseUrl}/api/auth/get-session?disableCookieCache=true`, headers: { cookie } }),
    http("okBesideRefetch", "GET /api/auth/ok, paired with the refetch", { url: `${fresh.baseUrl}/api/auth/ok` }),
  );
  Object.assign(results, refetch.results);
  const queryString = await measurePaired(
    http("sessionRefetchAfterSignIns", "GET /get-session?disableCookieCache=true, after the sign-ins", {
      url: `${app.baseUrl}/api/auth/get-session?disableCookieCache=true`,
      headers: { cookie },
    }),
    http("sessionBesideRefetch", "GET /get-session, after the sign-ins, paired with the refetch", { url: `${app.baseUrl}/api/auth/get-session`, headers: { cookie } }),
  );
  Object.assign(results, queryString.results);
  // Metrics on (issue 40): one histogram observation and a session-cache counter on bound children per request.
  const metrics = await measurePaired(
    http("sessionMetered", "GET /get-session, METRICS_PORT set", { url: `${metered.baseUrl}/api/auth/get-session`, headers: { cookie } }),
    http("sessionUnmetered", "GET /get-session, no METRICS_PORT, paired with it", { url: `${fresh.baseUrl}/api/auth/get-session`, headers: { cookie } }),
  );
  Object.assign(results, metrics.results);
  for (const server of [bare, reference, full, handful, limited, fresh, metered]) await server.stop();

  // Issue 39 §6: the owner under a credential-stuffing wave, here and on Better Auth, each on a server of its own
  // with rate limits on behind one trusted proxy.
  const attack = ATTACK_SECONDS > 0 ? await measureAttacks(database, referenceDatabase) : null;

  console.log(`[bench] ${SESSIONS_FOR_MEMORY} sessions, ${MEMORY_READS} reads at random…`);
  const cookies = await cloneSessions(database.url, cookie, SESSIONS_FOR_MEMORY);
  const check = await call(app.baseUrl, "/api/auth/get-session", { cookie: cookies[0] });
  if (check.json?.user?.email !== user.email) throw new Error("a session written by the bench was not recognised: has the session storage changed?");
  const memoryRun = await runAutocannon({
    url: `${app.baseUrl}/api/auth/get-session`,
    connections: CONNECTIONS,
    amount: MEMORY_READS,
    requests: [
      {
        setupRequest: (request) => {
          request.headers = { ...request.headers, cookie: cookies[Math.floor(Math.random() * cookies.length)] };
          return request;
        },
      },
    ],
  });
  results.rssMegabytes = residentMegabytes(app.pid);
  results.memoryProblems = memoryRun.non2xx ? [`${memoryRun.non2xx} non-2xx answers`] : [];
  await app.stop();

  const targets = [
    ["GET /api/auth/ok ÷ bare node:http", ratio("ok", "bare"), "≥ 0.2×", (v) => v >= 0.2, fmt.ratio],
    ["GET /get-session ÷ GET /api/auth/ok", ratio("session", "ok"), "≥ 0.8×", (v) => v >= 0.8, fmt.ratio],
    ["GET /get-session?disableCookieCache=true ÷ /ok", refetch.ratio, "≥ 0.9×", (v) => v >= 0.9, fmt.ratio],
    ["the refetch ÷ get-session, after the sign-ins", queryString.ratio, "≥ 0.9×", (v) => v >= 0.9, fmt.ratio],
    ["GET /get-session ÷ Better Auth 1.7", ratio("session", "referenceSession"), "≥ 5× (aim 10×)", (v) => v >= 5, fmt.ratio],
    ["GET /get-session, METRICS_PORT set ÷ unset", metrics.ratio, "≥ 0.9×", (v) => v >= 0.9, fmt.ratio],
    ["/ok, full route table ÷ a handful of routes", routeCount.ratio, "0.9×–1.1×", (v) => v >= 0.9 && v <= 1.1, fmt.ratio],
    ["429 flood from one address ÷ /ok", ratio("flood", "ok"), "≥ 1×", (v) => v >= 1, fmt.ratio],
    // What the limiter costs a route: against /ok, the same HTTP path without a limit. (It was measured against
    // get-session until the signed-in read left that path, ADR 054; get-session ran at ~0.85× of /ok then.)
    ["rate-limited route under its limit ÷ /ok", ratio("underLimit", "ok"), "≥ 0.7×", (v) => v >= 0.7, fmt.ratio],
    ["POST /sign-in/email ÷ raw scrypt", ratio("signIn", "scrypt"), "≥ 0.95×", (v) => v >= 0.95, fmt.ratio],
    // Issue 39 §6: the lockout's count must not cost the quiet sign-in its lead.
    ["POST /sign-in/email ÷ Better Auth 1.7's", ratio("signIn", "referenceSignIn"), "≥ 1×", (v) => v >= 1, fmt.ratio],
    [`get-session p99 ÷ p50, ${TAIL_CONNECTIONS} connections`, results.sessionTail.tailSpread, "≤ 2×", (v) => v <= 2, fmt.ratio],
    [`RSS after ${SESSIONS_FOR_MEMORY / 1000}k sessions read at random`, results.rssMegabytes, "< 300 MB", (v) => v < 300, (v) => `${v.toFixed(0)} MB`],
    ...(attack ? attackTargets(attack.ours) : []),
  ];
  console.log(`\n${kindName}, API through ${args.dispatch === "remix" ? "express + Remix" : "the direct dispatch"}:\n`);
  printColumns(
    ["figure", "measured", "target", ""],
    targets.map(([name, value, target, pass, format]) => [name, format(value), target, pass(value) ? "✓" : "✗"]),
    new Set([0, 2]),
  );
  // The same spread for the bare server, measured the same way: the floor a fast server approaches, which is
  // the load generator's own on a shared machine (docs/performance.md, "The tail figure").
  console.log(`(bare node:http p99 ÷ p50 at ${TAIL_CONNECTIONS} connections, for comparison: ${fmt.ratio(results.bareTail.tailSpread)})`);
  console.log("");
  if (attack) printAttack(attack);
  const rows = ["bare", "bareTail", "ok", "okFull", "okHandful", "session", "sessionRefetch", "okBesideRefetch", "sessionRefetchAfterSignIns", "sessionBesideRefetch", "sessionTail", "referenceSession", "underLimit", "flood", "signIn", "referenceSignIn", "scrypt"].map(
    (key) => results[key],
  );
  printColumns(
    ["measurement", "conns", "req/s", "p50 ms", "p90 ms", "p99 ms"],
    rows.map((r) => [r.title, String(r.connections), fmt.rps(r.rps), fmt.ms(r.p50), fmt.ms(r.p90), fmt.ms(r.p99)]),
    new Set([0]),
  );
  const problems = [
    ...rows.flatMap((r) => r.problems.map((problem) => `  ! ${r.title}: ${problem}`)),
    ...results.memoryProblems.map((problem) => `  ! random session reads: ${problem}`),
  ];
  if (problems.length) console.log(`\nProblems (figures above exclude these responses):\n${problems.join("\n")}`);
}

/** Issue 39 §6's wave, on a fresh server each: ours and Better Auth's, rate limits on behind one trusted proxy. */
async function measureAttacks(database, referenceDatabase) {
  console.log(`[bench] under attack: the app…`);
  const attackedApp = await startApp(database.url, { AUTH_RATE_LIMIT: "on", TRUST_PROXY: "1" });
  const ours = await measureUnderAttack(attackedApp.baseUrl, { seconds: ATTACK_SECONDS });
  await attackedApp.stop();
  console.log(`[bench] under attack: Better Auth 1.7…`);
  const attackedReference = await start("scripts/lib/better-auth-bench-server.mjs", { DATABASE_URL: referenceDatabase.url, AUTH_SECRET: SECRET, BENCH_RATE_LIMIT: "on" });
  const theirs = await measureUnderAttack(attackedReference.baseUrl, { seconds: ATTACK_SECONDS });
  await attackedReference.stop();
  return { ours, theirs };
}

/** The "under attack" figures with targets (issue 39 §6): each a ratio of the attacked phase to the quiet one. */
function attackTargets({ quiet, attacked }) {
  return [
    ["under attack: owner's sign-in ÷ quiet (median)", attacked.ownerMs / quiet.ownerMs, "≤ 2×", (v) => v <= 2, fmt.ratio],
    ["under attack: owner's sign-ins answered 200", attacked.signIns.filter((s) => s.status === 200 && s.signedIn).length, `all ${attacked.signIns.length}`, (v) => v === attacked.signIns.length, String],
    ["under attack: reads' p99 ÷ quiet", attacked.readP99 / quiet.readP99, "≤ 3×", (v) => v <= 3, fmt.ratio],
  ];
}

function printAttack({ ours, theirs }) {
  console.log(`\nUnder attack (${ATTACK_SECONDS} s quiet and ${ATTACK_SECONDS} s attacked, in turns; 32 connections of wrong passwords, each from a new address, a quarter at the owner's e-mail):\n`);
  const line = (name, { quiet, attacked }) => [
    name,
    `${fmt.ms(quiet.ownerMs)} → ${fmt.ms(attacked.ownerMs)} ms`,
    fmt.ratio(attacked.ownerMs / quiet.ownerMs),
    `${attacked.signIns.filter((s) => s.status === 200 && s.signedIn).length} of ${attacked.signIns.length}`,
    `${fmt.ms(quiet.readP99)} → ${fmt.ms(attacked.readP99)} ms`,
    fmt.ratio(attacked.readP99 / quiet.readP99),
    fmt.ratio(attacked.readRps / quiet.readRps),
    `${fmt.rps(attacked.attackRps)} (${Object.entries(attacked.attackStatuses).map(([status, count]) => `${status}: ${count}`).join(", ")})`,
  ];
  printColumns(
    ["server", "owner's sign-in", "÷ quiet", "owner 200", "reads p99", "÷ quiet", "reads req/s ÷ quiet", "guesses/s (statuses)"],
    [line("Latchkey", ours), line("Better Auth 1.7", theirs)],
    new Set([0]),
  );
  const refused = theirs.attacked.signIns.filter((s) => s.status !== 200);
  if (refused.length) console.log(`(Better Auth refused the owner ${refused.length} time(s): ${[...new Set(refused.map((s) => s.status))].join(", ")})`);
  const oursRefused = ours.attacked.signIns.filter((s) => s.status !== 200 || !s.signedIn);
  if (oursRefused.length) console.log(`(Latchkey: the owner was not signed in ${oursRefused.length} time(s): ${oursRefused.map((s) => `${s.status} ${s.code}`).join("; ")})`);
}

try {
  await main();
  await exit(0);
} catch (error) {
  console.error(`[bench] ${error.stack ?? error}`);
  await exit(1);
}
