// `npm test`: everything, on a fresh machine. Installs Chromium from Debian when missing, builds once, type-checks,
// runs the unit and API suites (API on SQLite and PostgreSQL) with Vitest and the browser flows with Playwright, and
// ends with one plain "N passed, N failed" line.
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { writeApiRoutes } from "./api-routes.mjs";
import { projectRoot } from "./lib/database-url.mjs";

process.chdir(projectRoot);
const onCi = process.env.CI === "true";
const results = path.join(projectRoot, "tests", ".tmp", "results");
rmSync(results, { recursive: true, force: true });
mkdirSync(results, { recursive: true });
const args = process.argv.slice(2);
const only = (name) => args.length === 0 || args.includes(name);

function ensureChromium() {
  if (existsSync("/usr/bin/chromium")) return;
  console.log("[test] installing Chromium from Debian (apt-get)…");
  const sudo = process.getuid?.() === 0 ? [] : ["sudo"];
  const run = (cmd) => execFileSync(sudo[0] ?? cmd[0], sudo.length ? cmd : cmd.slice(1), { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
  run(["apt-get", "update", "-qq"]);
  run(["apt-get", "install", "-y", "-qq", "chromium"]);
}

async function postgresReachable() {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: process.env.TEST_POSTGRES_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres", connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

function tryStartPostgres() {
  // The machines this project runs on have PostgreSQL installed; start it if it is merely stopped.
  spawnSync("bash", ["-c", "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql | head -1) main start"], { stdio: "ignore" });
}

// Redis backs one rate-limit store; the machines this runs on have it installed, maybe stopped.
spawnSync("bash", ["-c", "redis-cli ping >/dev/null 2>&1 || redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save '' --appendonly no >/dev/null 2>&1"], { stdio: "ignore" });

const env = { ...process.env };
if (!(await postgresReachable())) {
  tryStartPostgres();
  if (!(await postgresReachable())) {
    if (onCi) {
      console.error("[test] PostgreSQL is not reachable on 127.0.0.1:5432; CI requires it.");
      process.exit(1);
    }
    console.warn("[test] PostgreSQL is not reachable on 127.0.0.1:5432: skipping the PostgreSQL API suite.");
    env.TEST_SKIP_POSTGRES = "1";
  }
}

// The official passkey client cannot share the root lock file (docs: tests/compat/better-auth-passkey/package.json).
const passkeyCompat = "tests/compat/better-auth-passkey";
if (!existsSync(path.join(passkeyCompat, "node_modules"))) {
  console.log(`[test] installing ${passkeyCompat} (npm ci)…`);
  const install = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--prefix", passkeyCompat], { stdio: "inherit" });
  if (install.status !== 0 && onCi) process.exit(1);
}

// The official SSO client likewise (tests/compat/better-auth-sso/package.json).
const ssoCompat = "tests/compat/better-auth-sso";
if (!existsSync(path.join(ssoCompat, "node_modules"))) {
  console.log(`[test] installing ${ssoCompat} (npm ci)…`);
  const install = spawnSync("npm", ["ci", "--no-audit", "--no-fund", "--prefix", ssoCompat], { stdio: "inherit" });
  if (install.status !== 0 && onCi) process.exit(1);
}

if (!existsSync("app/generated/prisma-sqlite")) execFileSync(process.execPath, ["scripts/generate-prisma.mjs"], { stdio: "inherit" });
console.log("[test] building…");
writeApiRoutes();
execFileSync(process.execPath, ["node_modules/@remix-run/dev/dist/cli.js", "build"], { stdio: "inherit" });

let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;

/** Runs a child to completion; `log`: its output goes to that file (printed afterwards) instead of the terminal. */
function run(args, { log } = {}) {
  return new Promise((resolve) => {
    const out = log ? openSync(log, "w") : "inherit";
    const child = spawn(process.execPath, args, { stdio: ["ignore", out, out], env });
    child.on("close", (status) => {
      if (log) closeSync(out);
      resolve(status);
    });
  });
}

// The three parts run side by side (ADR 038): the browser tests spend most of their time waiting on pages and
// mail, not on the CPU, so they overlap the API suite almost for free. The API suite prints as it goes; the type
// check and the browser tests print when they are done.
const typecheckLog = path.join(results, "typecheck.log");
const playwrightLog = path.join(results, "playwright.log");
if (only("e2e")) ensureChromium();
const [tscStatus, vitestStatus, playwrightStatus] = await Promise.all([
  // The type check is a test: the typed client's compile-time checks (tests/unit/client-types.test.ts) and every
  // @ts-expect-error mean something only if tsc runs. Counted as one test.
  only("typecheck") ? run(["node_modules/typescript/bin/tsc", "--noEmit", "-p", "."], { log: typecheckLog }) : null,
  only("vitest")
    ? run(["node_modules/vitest/vitest.mjs", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${path.join(results, "vitest.json")}`])
    : null,
  // playwright.config.ts writes its JSON report to tests/.tmp/results/playwright.json.
  only("e2e") ? run(["node_modules/@playwright/test/cli.js", "test"], { log: playwrightLog }) : null,
]);

if (tscStatus !== null) {
  console.log("\n[test] type check (tsc):");
  process.stdout.write(readFileSync(typecheckLog, "utf8"));
  if (tscStatus === 0) passed += 1;
  else {
    failed += 1;
    exitCode = 1;
    console.error("[test] the type check failed");
  }
}

if (vitestStatus !== null) {
  if (vitestStatus !== 0) exitCode = 1;
  try {
    const report = JSON.parse(readFileSync(path.join(results, "vitest.json"), "utf8"));
    passed += report.numPassedTests;
    // Failed tests, plus each file that failed without a failed test to show for it (an error while it loaded
    // or in a hook): counting every failed suite as well counted one failing test up to three times.
    const silentFileFailures = (report.testResults ?? []).filter(
      (file) => file.status === "failed" && !(file.assertionResults ?? []).some((test) => test.status === "failed"),
    ).length;
    failed += report.numFailedTests + silentFileFailures;
    skipped += report.numPendingTests + report.numTodoTests;
  } catch {
    failed += 1;
    console.error("[test] vitest produced no report");
  }
}

if (playwrightStatus !== null) {
  console.log("\n[test] browser tests (Playwright):");
  process.stdout.write(readFileSync(playwrightLog, "utf8"));
  if (playwrightStatus !== 0) exitCode = 1;
  try {
    const report = JSON.parse(readFileSync(path.join(results, "playwright.json"), "utf8"));
    passed += report.stats.expected;
    failed += report.stats.unexpected + report.stats.flaky;
    skipped += report.stats.skipped;
  } catch {
    failed += 1;
    console.error("[test] playwright produced no report");
  }
}

if (failed > 0) exitCode = 1;
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(exitCode);
