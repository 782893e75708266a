// `npm run bench [-- --postgres] [--duration=5] [--connections=4]`
//
// Starts the built server on a fresh database and measures, with autocannon, requests per second and latency
// percentiles for the session read (database path and cookie-cache path) and for password sign-in, next to
// baselines measured the same way on the same machine:
//   - a static file served by express (the raw HTTP stack) and GET /api/auth/ok (the lightest Remix route):
//     the HTTP routes are shown as ratios to /ok;
//   - raw crypto.scrypt with the password parameters, two calls in flight, in-process: sign-in is shown as a
//     ratio to it (sign-in is meant to cost one scrypt and little else).
// Each measurement runs for a bounded time after a short warm-up; the whole script stops itself and removes
// its database and server whatever happens. Absolute figures vary by machine and run; the ratios are the point.
import autocannon from "autocannon";
import { randomBytes, scrypt } from "node:crypto";
import os from "node:os";
import { parseArgs } from "node:util";
import { ensureBuilt } from "./lib/build.mjs";
import { projectRoot } from "./lib/database-url.mjs";
import { createScratchDatabase } from "./lib/scratch-database.mjs";
import { spawnServer } from "./lib/spawn-server.mjs";

const { values: args } = parseArgs({
  options: {
    postgres: { type: "boolean", default: false },
    duration: { type: "string", default: "5" },
    warmup: { type: "string", default: "1" },
    connections: { type: "string", default: "4" },
  },
});
const DURATION = Number(args.duration);
const WARMUP = Number(args.warmup);
const CONNECTIONS = Number(args.connections);
if (!(DURATION > 0 && WARMUP >= 0 && Number.isInteger(CONNECTIONS) && CONNECTIONS > 0)) {
  console.error("usage: npm run bench -- [--postgres] [--duration=SECONDS] [--warmup=SECONDS] [--connections=N]");
  process.exit(2);
}
/** Sign-in and raw scrypt both run with two in flight, so their figures compare like for like. */
const SCRYPT_CONCURRENCY = 2;
const SCRYPT = { N: 16384, r: 16, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 64;
const SECRET = "bench-secret-that-is-long-enough-for-hmac-0123456789";

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
// Six measurements (five HTTP, one scrypt) of warm-up + duration each, plus generous time for a build,
// two server start-ups and the set-up calls.
const TIME_LIMIT_MS = (6 * (WARMUP + DURATION) + 120) * 1000;
setTimeout(() => {
  console.error(`[bench] still running after ${TIME_LIMIT_MS / 1000} s: stopping.`);
  exit(1);
}, TIME_LIMIT_MS).unref();

// ---------------------------------------------------------------------------------------------------------
// Database and server.

async function createDatabase() {
  const kind = args.postgres ? "postgres" : "sqlite";
  let database;
  try {
    database = await createScratchDatabase(kind, "latchkey_bench");
  } catch (error) {
    throw new Error(`${error.message}; set TEST_POSTGRES_URL or drop --postgres.`);
  }
  cleanups.push(database.drop);
  return { ...database, kind: args.postgres ? "PostgreSQL" : "SQLite" };
}

/** The built server on a free port; its own environment only, so nothing in the caller's shell skews it. */
async function startServer(databaseUrl, extraEnv = {}) {
  const server = await spawnServer({
    host: "127.0.0.1",
    env: { AUTH_SECRET: SECRET, DATABASE_URL: databaseUrl, AUTH_RATE_LIMIT: "off", ...extraEnv },
  });
  const stop = () => server.stop("SIGTERM");
  cleanups.push(stop);
  return { baseUrl: server.baseUrl, stop, output: server.output };
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
 * Requests per second (counting only responses with the expected status) and latency percentiles in ms.
 * Latencies are collected at full resolution here: autocannon's own histogram rounds to whole milliseconds.
 */
async function measureHttp({ title, url, method = "GET", headers = {}, body, connections = CONNECTIONS, expectStatus = 200 }) {
  const request = { url, method, headers, body, connections };
  if (WARMUP > 0) await runAutocannon({ ...request, duration: WARMUP });
  const latencies = [];
  let unexpected = 0;
  const started = performance.now();
  const result = await runAutocannon({ ...request, duration: DURATION }, (_client, statusCode, _bytes, responseTime) => {
    if (statusCode === expectStatus) latencies.push(responseTime);
    else unexpected += 1;
  });
  const seconds = (performance.now() - started) / 1000;
  const problems = [];
  if (unexpected) problems.push(`${unexpected} responses were not ${expectStatus} (${JSON.stringify(result.statusCodeStats)})`);
  if (result.errors) problems.push(`${result.errors} connection errors, ${result.timeouts} timeouts`);
  return { title, connections, rps: latencies.length / seconds, ...percentiles(latencies), problems };
}

function scryptOnce(password, salt) {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, SCRYPT, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Raw crypto.scrypt with the app's parameters, `concurrency` calls in flight, on this process's thread pool. */
async function measureScrypt(concurrency = SCRYPT_CONCURRENCY) {
  const password = randomBytes(12).toString("hex");
  const salt = randomBytes(16).toString("hex");
  const loop = async (seconds, latencies) => {
    const end = performance.now() + seconds * 1000;
    while (performance.now() < end) {
      const t0 = performance.now();
      await scryptOnce(password, salt);
      latencies?.push(performance.now() - t0);
    }
  };
  if (WARMUP > 0) await Promise.all(Array.from({ length: concurrency }, () => loop(WARMUP)));
  const latencies = [];
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, () => loop(DURATION, latencies)));
  const seconds = (performance.now() - started) / 1000;
  return {
    title: "crypto.scrypt, in-process",
    connections: concurrency,
    rps: latencies.length / seconds,
    ...percentiles(latencies),
    problems: [],
  };
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

async function signIn(baseUrl, user) {
  const { response } = await call(baseUrl, "/api/auth/sign-in/email", { method: "POST", body: { email: user.email, password: user.password } });
  return cookieHeader(response);
}

// ---------------------------------------------------------------------------------------------------------
// Report.

const fmt = {
  rps: (v) => (v >= 100 ? v.toFixed(0) : v.toFixed(1)),
  ms: (v) => (v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)),
  ratio: (v) => (v >= 10 ? `${v.toFixed(0)}×` : v >= 1 ? `${v.toFixed(1)}×` : `${v.toFixed(2)}×`),
};

function printTable(rows) {
  const header = ["", "conns", "req/s", "p50 ms", "p90 ms", "p99 ms", "compared with", "req/s", "p50", "p90", "p99"];
  const lines = rows.map(({ result, baseline }) => {
    const own = [result.title, String(result.connections), fmt.rps(result.rps), fmt.ms(result.p50), fmt.ms(result.p90), fmt.ms(result.p99)];
    if (!baseline) return [...own, "(baseline)", "", "", "", ""];
    return [
      ...own,
      baseline.title,
      fmt.ratio(result.rps / baseline.rps),
      fmt.ratio(result.p50 / baseline.p50),
      fmt.ratio(result.p90 / baseline.p90),
      fmt.ratio(result.p99 / baseline.p99),
    ];
  });
  const widths = header.map((_, i) => Math.max(header[i].length, ...lines.map((line) => line[i].length)));
  const leftAligned = new Set([0, 6]);
  const render = (cells) =>
    cells.map((cell, i) => (leftAligned.has(i) ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ").trimEnd();
  console.log(render(header));
  console.log(widths.map((w) => "─".repeat(w)).join("  "));
  for (const line of lines) console.log(render(line));
  const problems = rows.flatMap(({ result }) => result.problems.map((problem) => `  ! ${result.title}: ${problem}`));
  if (problems.length) console.log(`\nProblems (figures above exclude these responses):\n${problems.join("\n")}`);
}

// ---------------------------------------------------------------------------------------------------------

async function main() {
  process.chdir(projectRoot);
  ensureBuilt({ log: (message) => console.log(message.replace("[latchkey]", "[bench]")) });
  const cpus = os.cpus();
  const database = await createDatabase();
  console.log(
    `[bench] Node ${process.version}, ${cpus.length} × ${cpus[0]?.model.trim() ?? "CPU"}, ${database.kind}; ` +
      `${DURATION} s per measurement after ${WARMUP} s warm-up, ${CONNECTIONS} connections ` +
      `(sign-in and scrypt: ${SCRYPT_CONCURRENCY}).`,
  );

  const [load] = os.loadavg();
  if (load > cpus.length * 0.5) {
    console.warn(`[bench] the machine is busy (load average ${load.toFixed(1)} on ${cpus.length} CPUs): expect noisy figures.`);
  }

  // Raw scrypt first, while nothing else competes for the CPU.
  console.log("[bench] crypto.scrypt…");
  const scryptResult = await measureScrypt();

  const user = { name: "Bench User", email: `bench-${randomBytes(4).toString("hex")}@example.com`, password: randomBytes(12).toString("hex") };
  const plain = await startServer(database.url);
  await call(plain.baseUrl, "/api/auth/sign-up/email", { method: "POST", body: user });
  const dbCookie = await signIn(plain.baseUrl, user);
  const { json: session } = await call(plain.baseUrl, "/api/auth/get-session", { cookie: dbCookie });
  if (session?.user?.email !== user.email) throw new Error(`get-session did not return the signed-in user: ${JSON.stringify(session)}`);

  const measure = (title, pathname, options = {}) => {
    console.log(`[bench] ${title}…`);
    return measureHttp({ title, url: plain.baseUrl + pathname, ...options });
  };
  const staticFile = await measure("static /favicon.ico", "/favicon.ico");
  const ok = await measure("GET /api/auth/ok", "/api/auth/ok");
  const sessionFromDatabase = await measure("GET /get-session (database)", "/api/auth/get-session", { headers: { cookie: dbCookie } });
  const signInResult = await measure("POST /sign-in/email", "/api/auth/sign-in/email", {
    method: "POST",
    connections: SCRYPT_CONCURRENCY,
    headers: { "content-type": "application/json", origin: plain.baseUrl },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  await plain.stop();

  // A second server with the signed cookie cache on; same database and secret.
  const cached = await startServer(database.url, { AUTH_COOKIE_CACHE_MAX_AGE: "300" });
  const cacheCookie = await signIn(cached.baseUrl, user);
  if (!cacheCookie.includes("session_data=")) throw new Error("sign-in with the cookie cache on set no session_data cookie");
  const { response: cachedRead } = await call(cached.baseUrl, "/api/auth/get-session", { cookie: cacheCookie });
  if (cachedRead.headers.getSetCookie().length) throw new Error("get-session with a valid cache cookie still rewrote cookies: not the cache path");
  console.log("[bench] GET /get-session (cookie cache)…");
  const sessionFromCache = await measureHttp({
    title: "GET /get-session (cookie cache)",
    url: `${cached.baseUrl}/api/auth/get-session`,
    headers: { cookie: cacheCookie },
  });
  await cached.stop();

  console.log("");
  printTable([
    { result: staticFile },
    { result: ok, baseline: staticFile },
    { result: sessionFromDatabase, baseline: ok },
    { result: sessionFromCache, baseline: ok },
    { result: scryptResult },
    { result: signInResult, baseline: scryptResult },
  ]);
  console.log(
    "\nRatios: req/s below 1× and latency above 1× mean slower than the baseline. Sign-in should stay close to raw " +
      "scrypt (one hash per request); get-session should stay within a small factor of /ok.",
  );
}

try {
  await main();
  await exit(0);
} catch (error) {
  console.error(`[bench] ${error.stack ?? error}`);
  await exit(1);
}
