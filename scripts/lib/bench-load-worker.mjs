// A load generator on its own thread, for the benchmark's "under attack" figure (scripts/lib/bench-under-attack.mjs):
// its event loop is not the one that times the owner's sign-ins, so thousands of refusals a second do not delay
// the owner's measurement on the client side. workerData: { url, method, headers, body, connections, seconds,
// freshAddress, emails, keepLatencies }. Every request gets a fresh X-Forwarded-For address when `freshAddress`
// (each guess from a new address, as a botnet's), and one of `emails` at random when given ({email} in the body).
import autocannon from "autocannon";
import { parentPort, workerData } from "node:worker_threads";

const { url, method = "GET", headers = {}, body, connections, seconds, freshAddress, emails, keepLatencies } = workerData;
let n = Math.floor(Math.random() * 1e6);
const nextAddress = () => {
  n += 1;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
};
const setupRequest = (request) => {
  if (freshAddress) request.headers = { ...request.headers, "x-forwarded-for": nextAddress() };
  if (emails) {
    const email = emails === "random" ? `nobody-${Math.random().toString(36).slice(2)}@example.com` : emails[Math.floor(Math.random() * emails.length)];
    request.body = JSON.stringify({ ...JSON.parse(body), email });
  }
  return request;
};

const statuses = {};
/** Refusals by code ("429 ACCOUNT_TEMPORARILY_LOCKED", "429 TOO_MANY_REQUESTS"): which door turned the guess away. */
const onResponse = (status, body) => {
  if (status < 400) return;
  const code = /"code":"([A-Z_]+)"/.exec(body)?.[1] ?? "";
  statuses[`${status} ${code}`.trim()] = (statuses[`${status} ${code}`.trim()] ?? 0) + 1;
};
const latencies = [];
const connected = new WeakSet();
const started = performance.now();
const instance = autocannon(
  { url, method, headers, body, connections, duration: seconds, timeout: 30, requests: [{ setupRequest, onResponse }] },
  (error, result) => {
    if (error) throw error;
    const elapsed = (performance.now() - started) / 1000;
    parentPort.postMessage({ statuses, latencies: keepLatencies ? latencies : [], answered: latencies.length, elapsed, errors: result.errors, timeouts: result.timeouts });
  },
);
instance.on("response", (client, statusCode, _bytes, responseTime) => {
  if (statusCode < 400) statuses[statusCode] = (statuses[statusCode] ?? 0) + 1;
  // As the bench's other figures: each connection's first answer also waited for its TCP set-up.
  if (statusCode === 200 && connected.has(client)) latencies.push(responseTime);
  else connected.add(client);
});
