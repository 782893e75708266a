// The benchmark's "under attack" figure (issue 39 §6, docs/decisions/061-owner-first-under-a-stuffing-wave.md):
// a server with rate limits on behind one trusted proxy (TRUST_PROXY=1) is measured quiet, then under a
// credential-stuffing wave: 32 connections of wrong passwords, each request from a fresh X-Forwarded-For address,
// a quarter of them at the owner's e-mail address and the rest at addresses with no account. Meanwhile, in both
// phases, the owner signs in from their own browser (the one that created the account: a known device, ADR 039)
// every 4 s and reads the session, and 8 connections read that session without pause. Each kind of phase lasts
// `seconds` in all, in two halves taken in turns (quiet, attacked, attacked, quiet); the load runs on worker threads so the owner's timings are not the load generator's. Reported: the
// owner's sign-in latency (median; under attack ÷ quiet, target ≤ 2×, every one answered 200), the reads' p99
// (≤ 3×) and their throughput, and the same for Better Auth 1.7 (its own rate limit on) when given.
import { randomBytes } from "node:crypto";
import { Worker } from "node:worker_threads";

const ATTACK_CONNECTIONS = 32;
const ATTACK_AT_OWNER = ATTACK_CONNECTIONS / 4;
const READ_CONNECTIONS = 8;
const OWNER_EVERY_MS = 4_000;
const OWNER_ADDRESS = "198.51.100.20";
/** The reads' own session is made from another address, so it takes nothing from the owner's per-address budget. */
const READER_ADDRESS = "198.51.100.21";
const WRONG = "not the right password at all";

function load(workerData) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL("./bench-load-worker.mjs", import.meta.url), { workerData });
    worker.once("message", resolve);
    worker.once("error", reject);
  });
}

function cookiesOf(response, jar) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(";");
    const name = pair.slice(0, pair.indexOf("="));
    const value = pair.slice(pair.indexOf("=") + 1);
    if (value) jar.set(name, value);
    else jar.delete(name);
  }
  return [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
}

/** The owner's browser: its own cookie jar, its own client address. */
function ownerBrowser(baseUrl, address = OWNER_ADDRESS) {
  const jar = new Map();
  const send = async (path, { method = "GET", body } = {}) => {
    const response = await fetch(baseUrl + path, {
      method,
      headers: {
        origin: baseUrl,
        "x-forwarded-for": address,
        ...(body ? { "content-type": "application/json" } : {}),
        ...(jar.size ? { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.text();
    cookiesOf(response, jar);
    return { status: response.status, text };
  };
  return { send, cookie: () => [...jar].map(([name, value]) => `${name}=${value}`).join("; ") };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)] : NaN;
};
const p99 = (values) => {
  const sorted = Float64Array.from(values).sort();
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil(0.99 * sorted.length) - 1)] : NaN;
};

/** One phase: the owner's sign-ins every 4 s and the reads, with or without the wave. */
async function phase(baseUrl, owner, sessionCookie, { attack, seconds }) {
  const signInUrl = `${baseUrl}/api/auth/sign-in/email`;
  const json = { "content-type": "application/json", origin: baseUrl };
  const attackers = attack
    ? [
        load({ url: signInUrl, method: "POST", headers: json, body: JSON.stringify({ email: owner.email, password: WRONG }), connections: ATTACK_AT_OWNER, seconds, freshAddress: true }),
        load({ url: signInUrl, method: "POST", headers: json, body: JSON.stringify({ email: "x", password: WRONG }), connections: ATTACK_CONNECTIONS - ATTACK_AT_OWNER, seconds, freshAddress: true, emails: "random" }),
      ]
    : [];
  // Each read from an address of its own: Better Auth limits get-session per address (100 per 10 s), we do not.
  const reads = load({ url: `${baseUrl}/api/auth/get-session`, headers: { cookie: sessionCookie }, connections: READ_CONNECTIONS, seconds, keepLatencies: true, freshAddress: true });
  const signIns = [];
  const end = performance.now() + seconds * 1000;
  await new Promise((resolve) => setTimeout(resolve, 500)); // the wave has started
  while (performance.now() < end - 250) {
    const next = performance.now() + OWNER_EVERY_MS;
    const t0 = performance.now();
    const answer = await owner.browser.send("/api/auth/sign-in/email", { method: "POST", body: { email: owner.email, password: owner.password } });
    const ms = performance.now() - t0;
    const read = await owner.browser.send("/api/auth/get-session");
    signIns.push({ ms, status: answer.status, signedIn: read.status === 200 && read.text.includes(owner.email), code: answer.status === 200 ? "" : answer.text.slice(0, 80) });
    const wait = Math.min(next, end) - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  const [readResult, ...attackResults] = await Promise.all([reads, ...attackers]);
  const attackStatuses = {};
  for (const result of attackResults) for (const [status, count] of Object.entries(result.statuses)) attackStatuses[status] = (attackStatuses[status] ?? 0) + count;
  return { signIns, readLatencies: readResult.latencies, readAnswered: readResult.answered, readSeconds: readResult.elapsed, attackStatuses, seconds };
}

/** Phases of one kind taken together: the owner's sign-ins and the reads of all of them. */
function summary(phases) {
  const signIns = phases.flatMap((p) => p.signIns);
  const attackStatuses = {};
  for (const p of phases) for (const [status, count] of Object.entries(p.attackStatuses)) attackStatuses[status] = (attackStatuses[status] ?? 0) + count;
  const seconds = phases.reduce((sum, p) => sum + p.seconds, 0);
  return {
    signIns,
    ownerMs: median(signIns.map((s) => s.ms)),
    readP99: p99(phases.flatMap((p) => p.readLatencies)),
    readRps: phases.reduce((sum, p) => sum + p.readAnswered, 0) / phases.reduce((sum, p) => sum + p.readSeconds, 0),
    attackStatuses,
    attackRps: Object.values(attackStatuses).reduce((a, b) => a + b, 0) / seconds,
  };
}

/**
 * Measures one server quiet and under the wave. `baseUrl` is a server with rate limits on and one trusted proxy;
 * the owner signs up there first (from the browser that will sign in: a known device where the server knows
 * devices).
 */
export async function measureUnderAttack(baseUrl, { seconds, log = console.log }) {
  const owner = { email: `owner-${randomBytes(4).toString("hex")}@example.com`, password: randomBytes(12).toString("hex") };
  owner.browser = ownerBrowser(baseUrl);
  const signUp = await owner.browser.send("/api/auth/sign-up/email", { method: "POST", body: { name: "Owner", email: owner.email, password: owner.password } });
  if (signUp.status !== 200) throw new Error(`sign-up at ${baseUrl} answered ${signUp.status}: ${signUp.text}`);
  // The reads use a session of their own, so the owner's sign-ins (which replace the browser's cookie) leave them be.
  const reader = ownerBrowser(baseUrl, READER_ADDRESS);
  const readerSignIn = await reader.send("/api/auth/sign-in/email", { method: "POST", body: { email: owner.email, password: owner.password } });
  if (readerSignIn.status !== 200) throw new Error(`sign-in at ${baseUrl} answered ${readerSignIn.status}: ${readerSignIn.text}`);
  // Quiet, attacked, attacked, quiet, each half of `seconds`: a machine whose speed drifts during the run weighs
  // on both sides alike (the rest of the bench takes turns for the same reason).
  const phases = { quiet: [], attacked: [] };
  for (const attack of [false, true, true, false]) {
    log(`[bench]   ${attack ? "under attack" : "quiet"}, ${seconds / 2} s…`);
    phases[attack ? "attacked" : "quiet"].push(await phase(baseUrl, owner, reader.cookie(), { attack, seconds: seconds / 2 }));
    await new Promise((resolve) => setTimeout(resolve, 2_000)); // the wave's last guesses drain
  }
  return { quiet: summary(phases.quiet), attacked: summary(phases.attacked) };
}
