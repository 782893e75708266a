// Issue 40's metrics and request logs, end to end against a server of this file's own (its log is read): the
// metrics port and its token, a strict parse of what it serves, each counter moving for what it counts, the
// request id, and no address or token in the metrics or the log. WEB_CONCURRENCY=2 and LOG_LEVEL=warn run on a
// second server.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../scripts/lib/spawn-server.mjs";
import { ApiClient, PASSWORD, uniqueEmail } from "../support/client";
import { logLines, requestLines } from "../support/log-lines";
import { mailCount, nextMail } from "../support/mail";
import { Mailbox } from "../support/mailbox";
import { parsePrometheusText, seriesValue, type Family } from "../support/prometheus";
import { startServer, type TestServer } from "../support/server";
import { codeAt, freshCode } from "../support/two-factor";
import { SoftAuthenticator } from "../support/webauthn";

const TOKEN = "metrics-token-for-the-api-suite-0123";
let server: TestServer;
let mailbox: Mailbox;
let metricsUrl: string;
/** What must never appear in /metrics or the log: every address, password, code and token the tests use. */
const secrets = new Set<string>([PASSWORD, TOKEN]);

/** A client behind the proxy at its own address, so each test has rate-limit buckets of its own. */
class Client extends ApiClient {
  constructor(private readonly address = `10.${(Math.random() * 250) | 0}.${(Math.random() * 250) | 0}.${(Math.random() * 250) | 0}`) {
    super(server.baseUrl);
  }
  override request<T = any>(method: string, path: string, options: { body?: unknown; rawBody?: string; headers?: Record<string, string> } = {}) {
    return super.request<T>(method, path, { ...options, headers: { "x-forwarded-for": this.address, ...options.headers } });
  }
}

beforeAll(async () => {
  mailbox = await new Mailbox().start();
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  server = await startServer({
    env: {
      SMTP_URL: mailbox.url,
      METRICS_PORT: String(port),
      METRICS_TOKEN: TOKEN,
      AUTH_RATE_LIMIT: "on",
      TRUST_PROXY: "1",
      AUTH_LOCKOUT_MAX_FAILURES: "2",
    },
  });
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await mailbox?.stop();
});

async function scrapeText(url = metricsUrl, token = TOKEN): Promise<string> {
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status).toBe(200);
  return response.text();
}
const scrape = async (url = metricsUrl): Promise<Map<string, Family>> => parsePrometheusText(await scrapeText(url));
const signIns = (families: Map<string, Family>, method: string, outcome: string) => seriesValue(families, "latchkey_sign_ins_total", { method, outcome });

/** How much each of `read`'s values moved while `work` ran (waiting for work done after the answer). */
async function moved(read: (families: Map<string, Family>) => number[], work: () => Promise<unknown>, expected: number[]): Promise<void> {
  const before = read(await scrape());
  await work();
  await expect.poll(async () => read(await scrape()).map((value, i) => value - before[i]), { timeout: 10_000 }).toEqual(expected);
}

async function signUpAs(client: ApiClient, extra: Record<string, string> = {}) {
  const email = uniqueEmail("metrics");
  secrets.add(email);
  const response = await client.post("/api/auth/sign-up/email", { name: "Metrics Test", email, password: PASSWORD, ...extra });
  expect(response.status).toBe(200);
  if (response.body.token) secrets.add(response.body.token);
  return email;
}

describe("the metrics port", () => {
  it("answers only with the token, and the public port never serves metrics", async () => {
    expect((await fetch(metricsUrl)).status).toBe(401);
    expect((await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    expect((await fetch(metricsUrl.replace("/metrics", "/other"), { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
    const ok = await fetch(metricsUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    for (const path of ["/metrics", "/metrics/", "/api/auth/metrics"]) expect((await fetch(`${server.baseUrl}${path}`)).status).toBe(404);
  });

  it("serves every family, declared from the start, in text that parses strictly", async () => {
    const families = await scrape();
    const types = Object.fromEntries([...families.values()].map((family) => [family.name, family.type]));
    expect(types).toMatchObject({
      process_cpu_seconds_total: "counter",
      process_resident_memory_bytes: "gauge",
      process_start_time_seconds: "gauge",
      nodejs_eventloop_lag_seconds: "gauge",
      nodejs_heap_size_used_bytes: "gauge",
      latchkey_build_info: "gauge",
      latchkey_http_request_duration_seconds: "histogram",
      latchkey_sign_ins_total: "counter",
      latchkey_sign_ups_total: "counter",
      latchkey_mails_total: "counter",
      latchkey_rate_limit_refusals_total: "counter",
      latchkey_session_cache_lookups_total: "counter",
      latchkey_database_errors_total: "counter",
      latchkey_redis_errors_total: "counter",
      latchkey_active_sessions: "gauge",
    });
    expect(seriesValue(families, "latchkey_build_info", { version: "0.1.0" })).toBe(1);
    // The fixed sets are there at 0 before their first event.
    expect(families.get("latchkey_sign_ins_total")!.samples).toHaveLength(30);
    expect(families.get("latchkey_sign_ups_total")!.samples.map((s) => s.labels.method).sort()).toEqual(["email_otp", "passkey", "password", "social"]);
  });

  it("observes every request under its route's template, never its path", async () => {
    const client = new Client();
    const route = (families: Map<string, Family>, labels: Record<string, string>) => seriesValue(families, "latchkey_http_request_duration_seconds_count", labels);
    await moved(
      (f) => [
        route(f, { method: "GET", route: "/api/auth/ok", status: "200" }),
        route(f, { method: "GET", route: "/api/auth/reset-password/:token", status: "302" }),
        route(f, { method: "GET", route: "unmatched", status: "404" }),
        route(f, { method: "GET", route: "/sign-in", status: "200" }),
      ],
      async () => {
        await client.get("/api/auth/ok");
        await client.get("/api/auth/reset-password/not-a-real-token-1?callbackURL=/reset-password");
        await client.get("/api/auth/reset-password/not-a-real-token-2?callbackURL=/reset-password");
        for (let i = 0; i < 3; i++) await client.get(`/no/such/page/${Math.random()}`);
        await client.get("/sign-in?email=someone%40example.com");
      },
      [1, 2, 3, 1],
    );
    const text = await scrapeText();
    expect(text).not.toContain("not-a-real-token");
    expect(text).not.toContain("/no/such/page");
  });
});

describe("sign-ins, sign-ups, mail, rate limits and the session cache", () => {
  it("counts a password sign-up, a success, a wrong password, an unknown account and a locked account", async () => {
    const client = new Client();
    const email = await signUpAs(client);
    await moved(
      (f) => [signIns(f, "password", "success"), signIns(f, "password", "failure"), signIns(f, "password", "locked")],
      async () => {
        const right = await new Client().post("/api/auth/sign-in/email", { email, password: PASSWORD });
        expect(right.status).toBe(200);
        secrets.add(right.body.token);
        expect((await new Client().post("/api/auth/sign-in/email", { email: uniqueEmail("nobody"), password: PASSWORD })).status).toBe(401);
        // AUTH_LOCKOUT_MAX_FAILURES=2: two wrong guesses, then the account is locked for new devices.
        for (let i = 0; i < 2; i++) expect((await new Client().post("/api/auth/sign-in/email", { email, password: `wrong ${PASSWORD}` })).status).toBe(401);
        expect((await new Client().post("/api/auth/sign-in/email", { email, password: `wrong ${PASSWORD}` })).status).toBe(429);
      },
      [1, 3, 1],
    );
  });

  it("counts a sign-up by password under its method", async () => {
    await moved((f) => [seriesValue(f, "latchkey_sign_ups_total", { method: "password" })], () => signUpAs(new Client()), [1]);
  });

  it("counts username sign-ins under username", async () => {
    const username = `metrics_${Date.now().toString(36)}`;
    await signUpAs(new Client(), { username });
    await moved(
      (f) => [signIns(f, "username", "success"), signIns(f, "username", "failure")],
      async () => {
        expect((await new Client().post("/api/auth/sign-in/username", { username, password: PASSWORD })).status).toBe(200);
        expect((await new Client().post("/api/auth/sign-in/username", { username, password: `wrong ${PASSWORD}` })).status).toBe(401);
      },
      [1, 1],
    );
  });

  it("counts two-factor: required after the password, a wrong code, then success under password", async () => {
    const owner = new Client();
    const email = await signUpAs(owner);
    const enabled = await owner.post("/api/auth/two-factor/enable", { password: PASSWORD });
    expect(enabled.status).toBe(200);
    const { totpURI } = enabled.body as { totpURI: string };
    const used = new Set<number>();
    expect((await owner.post("/api/auth/two-factor/verify-totp", { code: freshCode(totpURI, used) })).status).toBe(200);
    await moved(
      (f) => [signIns(f, "password", "two_factor_required"), signIns(f, "password", "two_factor_failure"), signIns(f, "password", "success")],
      async () => {
        const laptop = new Client();
        const first = await laptop.post("/api/auth/sign-in/email", { email, password: PASSWORD });
        expect(first.body.twoFactorRedirect).toBe(true);
        expect((await laptop.post("/api/auth/two-factor/verify-totp", { code: codeAt(totpURI, -5) })).status).toBe(401);
        const second = await laptop.post("/api/auth/two-factor/verify-totp", { code: freshCode(totpURI, used) });
        expect(second.status).toBe(200);
        secrets.add(second.body.token);
      },
      [1, 1, 1],
    );
  });

  it("counts an e-mailed code's sign-up and sign-in, a wrong code, and the mails sent", async () => {
    const email = uniqueEmail("metrics-otp");
    secrets.add(email);
    const client = new Client();
    await moved(
      (f) => [
        seriesValue(f, "latchkey_sign_ups_total", { method: "email_otp" }),
        signIns(f, "email_otp", "success"),
        signIns(f, "email_otp", "failure"),
        seriesValue(f, "latchkey_mails_total", { kind: "emailOtp", outcome: "sent" }),
      ],
      async () => {
        const seen = mailCount(mailbox, email);
        expect((await client.post("/api/auth/email-otp/send-verification-otp", { email, type: "sign-in" })).status).toBe(200);
        const code = (await nextMail(mailbox, email, /sign-in code/, seen)).text.match(/Your code: (\d{6})/)![1];
        secrets.add(code);
        expect((await client.post("/api/auth/sign-in/email-otp", { email, otp: code === "123456" ? "654321" : "123456" })).status).toBe(400);
        const signedIn = await client.post("/api/auth/sign-in/email-otp", { email, otp: code });
        expect(signedIn.status).toBe(200);
        secrets.add(signedIn.body.token);
      },
      [1, 1, 1, 1],
    );
  });

  it("counts passkey sign-ins: one that verifies, one that does not", async () => {
    const owner = new Client();
    await signUpAs(owner);
    const authenticator = new SoftAuthenticator(server.origin);
    const options = await owner.get("/api/auth/passkey/generate-register-options");
    expect(options.status, options.text).toBe(200);
    expect((await owner.post("/api/auth/passkey/verify-registration", { response: authenticator.register(options.body).response })).status).toBe(200);
    const signInWith = async (bend: { origin?: string }) => {
      const browser = new Client();
      const challenge = await browser.post("/api/auth/passkey/generate-authenticate-options", {});
      return browser.post("/api/auth/passkey/verify-authentication", { response: authenticator.authenticate(challenge.body, undefined, bend) });
    };
    await moved(
      (f) => [signIns(f, "passkey", "success"), signIns(f, "passkey", "failure")],
      async () => {
        const signedIn = await signInWith({});
        expect(signedIn.status, signedIn.text).toBe(200);
        secrets.add(signedIn.body.session.token);
        expect((await signInWith({ origin: "https://elsewhere.example" })).status).toBe(400);
      },
      [1, 1],
    );
  });

  it("counts a mail the SMTP server refused as failed", async () => {
    const email = uniqueEmail("metrics-refused");
    secrets.add(email);
    await mailbox.refuse(email);
    await moved(
      (f) => [seriesValue(f, "latchkey_mails_total", { kind: "emailOtp", outcome: "failed" })],
      () => new Client().post("/api/auth/email-otp/send-verification-otp", { email, type: "sign-in" }),
      [1],
    );
  });

  it("counts every 429 under its route", async () => {
    const client = new Client();
    const refusals = (f: Map<string, Family>) => [seriesValue(f, "latchkey_rate_limit_refusals_total", { route: "/api/auth/sign-in/email" })];
    const before = refusals(await scrape())[0];
    let refused = 0;
    for (let i = 0; i < 8; i++) {
      const response = await client.post("/api/auth/sign-in/email", { email: uniqueEmail("flood"), password: PASSWORD });
      if (response.status === 429) refused++;
    }
    expect(refused).toBeGreaterThan(0);
    await expect.poll(async () => refusals(await scrape())[0] - before, { timeout: 10_000 }).toBe(refused);
  });

  it("counts session reads as cache hits and misses", async () => {
    const client = new Client();
    await signUpAs(client);
    const lookups = (f: Map<string, Family>) => [
      seriesValue(f, "latchkey_session_cache_lookups_total", { result: "hit" }) + seriesValue(f, "latchkey_session_cache_lookups_total", { result: "miss" }),
      seriesValue(f, "latchkey_session_cache_lookups_total", { result: "hit" }),
    ];
    const before = lookups(await scrape());
    for (let i = 0; i < 3; i++) expect((await client.get("/api/auth/get-session")).status).toBe(200);
    const after = lookups(await scrape());
    expect(after[0] - before[0]).toBeGreaterThanOrEqual(3);
    expect(after[1] - before[1]).toBeGreaterThanOrEqual(1);
  });
});

describe("request ids and the log", () => {
  it("keeps a valid X-Request-Id on the API, a page and a 404, and writes it in the request's line", async () => {
    for (const [path, status] of [["/api/auth/ok", 200], ["/sign-in", 200], ["/no-such-page", 404]] as const) {
      const id = `trip-${path.length}-${Date.now()}`;
      const response = await fetch(`${server.baseUrl}${path}`, { headers: { "x-request-id": id, traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" } });
      expect(response.status).toBe(status);
      expect(response.headers.get("x-request-id")).toBe(id);
      await expect.poll(() => requestLines(server.output()).find((line) => line.requestId === id), { timeout: 10_000 }).toMatchObject({
        level: "info",
        method: "GET",
        status,
        ip: "127.0.0.1",
        traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      });
    }
    const replaced = await fetch(`${server.baseUrl}/api/auth/ok`, { headers: { "x-request-id": "not allowed; spaces" } });
    expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("names the signed-in user on the request's line", async () => {
    const client = new Client("10.200.1.1");
    await signUpAs(client);
    const id = `who-${Date.now()}`;
    const session = await client.get("/api/auth/get-session", { "x-request-id": id });
    await expect.poll(() => requestLines(server.output()).find((line) => line.requestId === id), { timeout: 10_000 }).toMatchObject({
      route: "/api/auth/get-session",
      userId: session.body.user.id,
      ip: "10.200.1.1",
    });
  });

  it("holds no address, password, code or token, in the log or in /metrics", async () => {
    const text = await scrapeText();
    const log = server.output();
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(log).not.toContain(secret);
    }
    // Every line is a JSON object with time, level and msg.
    for (const line of logLines(log)) expect(line).toMatchObject({ time: expect.any(String), level: expect.any(String), msg: expect.any(String) });
  });
});

describe("WEB_CONCURRENCY=2 and LOG_LEVEL=warn", () => {
  let cluster: TestServer;
  let clusterMetrics: string;
  beforeAll(async () => {
    const port = await freePort();
    clusterMetrics = `http://127.0.0.1:${port}/metrics`;
    cluster = await startServer({ env: { WEB_CONCURRENCY: "2", METRICS_PORT: String(port), LOG_LEVEL: "warn" } });
  }, 90_000);
  afterAll(async () => cluster?.stop());

  it("sums the workers' counts, and counts the same build once", async () => {
    const count = (f: Map<string, Family>) => seriesValue(f, "latchkey_http_request_duration_seconds_count", { method: "GET", route: "/api/auth/ok", status: "200" });
    const scrapeCluster = async () => parsePrometheusText(await (await fetch(clusterMetrics)).text());
    const before = count(await scrapeCluster());
    // New connections each time, so both workers take some.
    await Promise.all(Array.from({ length: 20 }, () => fetch(`${cluster.baseUrl}/api/auth/ok`, { headers: { connection: "close" } })));
    const after = await scrapeCluster();
    expect(count(after) - before).toBe(20);
    expect(seriesValue(after, "latchkey_build_info", { version: "0.1.0" })).toBe(1);
  });

  it("writes no request line below warn", async () => {
    await fetch(`${cluster.baseUrl}/api/auth/ok`);
    await fetch(`${cluster.baseUrl}/sign-in`);
    const lines = logLines(cluster.output());
    expect(lines.filter((line) => line.msg === "request")).toEqual([]);
    // Only the start-up milestones, which are written whatever the level.
    const quiet = lines.filter((line) => line.level === "info" || line.level === "debug").map((line) => line.msg);
    expect(quiet.sort()).toEqual([expect.stringMatching(/^listening on http:\/\/127\.0\.0\.1:\d+ \(2 processes\)$/), expect.stringMatching(/^metrics on port \d+$/)]);
  });
});
