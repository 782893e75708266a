// Issue 40's unit rules for metrics and logs: the route label comes from the route table (random paths collapse
// to one value), the request-id and traceparent rules, redaction of what a line must never hold, the metrics
// token check, and the new variables' validation.
import { EventEmitter } from "node:events";
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { parseEnv } from "~/env.server";
import { isDatabaseFailure } from "~/observability/database-errors.server";
import { apiRouteTable } from "~/http/api-routes.generated";
import { apiRoutesOf } from "~/http/api-routes.server";
import { bridgeConsole, createLogger, scrub, textLine } from "../../server/observability/logger.mjs";
import { bearerMatches } from "../../server/observability/metrics-server.mjs";
import { requestIdFrom, traceIdFrom } from "../../server/observability/request-id.mjs";
import { createRequestObserver, REQUEST_NOTE } from "../../server/observability/requests.mjs";
import { createRouteLabels, routeTemplates, UNMATCHED_ROUTE } from "../../server/observability/route-label.mjs";
import { parsePrometheusText, seriesValue } from "../support/prometheus";

/** A slice of a Remix build's route table, shaped as build.routes is. */
const ROUTES = {
  root: { id: "root", path: "" },
  "routes/_index": { id: "routes/_index", parentId: "root", index: true },
  "routes/sign-in": { id: "routes/sign-in", parentId: "root", path: "sign-in" },
  "routes/reset-password": { id: "routes/reset-password", parentId: "root", path: "reset-password" },
  "routes/account": { id: "routes/account", parentId: "root", path: "account" },
  "routes/account.sessions": { id: "routes/account.sessions", parentId: "routes/account", path: "sessions" },
  "routes/invitations.$id": { id: "routes/invitations.$id", parentId: "root", path: "invitations/:id" },
  "routes/api.auth.$": { id: "routes/api.auth.$", parentId: "root", path: "api/auth/*" },
  "routes/api.auth.sign-in.email": { id: "routes/api.auth.sign-in.email", parentId: "root", path: "api/auth/sign-in/email" },
  "routes/api.auth.reset-password_.$token": { id: "routes/api.auth.reset-password_.$token", parentId: "root", path: "api/auth/reset-password/:token" },
};
const apiRoutes = apiRoutesOf({
  static: { "/api/auth/sign-in/email": "routes/api.auth.sign-in.email" },
  parameterised: [{ prefix: "/api/auth/reset-password/", param: "token", id: "routes/api.auth.reset-password_.$token" }],
  splat: "routes/api.auth.$",
});

describe("the route label", () => {
  const label = createRouteLabels({ routes: ROUTES }, apiRoutes);

  it("is the matched route's template, never the path", () => {
    expect(label("/")).toBe("/");
    expect(label("/sign-in")).toBe("/sign-in");
    expect(label("/account/sessions")).toBe("/account/sessions");
    expect(label("/invitations/inv_8f3a")).toBe("/invitations/:id");
    expect(label("/api/auth/sign-in/email")).toBe("/api/auth/sign-in/email");
    expect(label("/API/auth/sign-in/email/")).toBe("/api/auth/sign-in/email");
    expect(label("/api/auth/reset-password/s3cr3t-t0ken")).toBe("/api/auth/reset-password/:token");
    expect(label("/api/auth/no/such/endpoint")).toBe("/api/auth/*");
  });

  it("collapses every path no route serves to one value", () => {
    const labels = new Set(Array.from({ length: 200 }, (_, i) => label(`/wp-admin/${i}/${Math.random().toString(36).slice(2)}.php`)));
    expect([...labels]).toEqual([UNMATCHED_ROUTE]);
    expect(label("/reset-password/abc")).toBe(UNMATCHED_ROUTE);
  });

  it("covers every route of the real API table", () => {
    const routes = { root: { id: "root", path: "" } } as Record<string, { id: string; parentId?: string; path?: string }>;
    for (const [path, id] of Object.entries(apiRouteTable.static)) routes[id] = { id, parentId: "root", path: path.slice(1) };
    const templates = routeTemplates(routes);
    const real = createRouteLabels({ routes }, apiRoutesOf(apiRouteTable));
    for (const [path, id] of Object.entries(apiRouteTable.static)) expect(real(path)).toBe(templates.get(id));
  });
});

describe("X-Request-Id", () => {
  it("keeps an id made of the allowed characters, up to 128 of them", () => {
    for (const id of ["abc", "req-1.2:3/4+5=6_7", "a".repeat(128), "0f8fad5b-d9cb-469f-a165-70867728950e"]) expect(requestIdFrom(id)).toBe(id);
  });
  it("replaces anything else with a random UUID", () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    for (const id of [undefined, "", "a".repeat(129), "has space", "semi;colon", "new\nline", "a, b", "ünïcode", "<script>"]) {
      expect(requestIdFrom(id)).toMatch(uuid);
    }
    expect(requestIdFrom(undefined)).not.toBe(requestIdFrom(undefined));
  });
});

describe("traceparent", () => {
  const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
  it("gives the trace id of a valid header", () => {
    expect(traceIdFrom(`00-${TRACE}-00f067aa0ba902b7-01`)).toBe(TRACE);
    expect(traceIdFrom(`01-${TRACE}-00f067aa0ba902b7-00-later-fields`)).toBe(TRACE);
  });
  it("gives nothing for an invalid one", () => {
    for (const header of [
      undefined,
      "",
      `00-${TRACE}-00f067aa0ba902b7`,
      `00-${TRACE.toUpperCase()}-00f067aa0ba902b7-01`,
      `00-${"0".repeat(32)}-00f067aa0ba902b7-01`,
      `00-${TRACE}-${"0".repeat(16)}-01`,
      `ff-${TRACE}-00f067aa0ba902b7-01`,
      `00-${TRACE}-00f067aa0ba902b7-01-extra`,
    ]) {
      expect(traceIdFrom(header)).toBeUndefined();
    }
  });
});

/** A logger writing into an array of parsed lines. */
function capturedLogger(options: { level?: string; format?: string } = {}) {
  const lines: Record<string, unknown>[] = [];
  let text = "";
  const destination = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      for (const line of String(chunk).split("\n")) if (line.startsWith("{")) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: createLogger({ ...options, destination }), lines, text: () => text };
}

describe("log lines", () => {
  it("are JSON with an ISO time, the level's word and msg", () => {
    const { logger, lines } = capturedLogger();
    logger.info({ requestId: "r1" }, "request");
    expect(lines).toEqual([{ level: "info", time: expect.any(String), requestId: "r1", msg: "request" }]);
    expect(new Date(lines[0].time as string).toISOString()).toBe(lines[0].time);
  });

  it("redact cookies, Authorization, Set-Cookie, tokens, passwords, bodies, queries and addresses passed as fields", () => {
    const { logger, text } = capturedLogger();
    logger.warn(
      {
        cookie: "__Secure-latchkey.session_token=abc.sig",
        authorization: "Bearer metrics-token-1234567890",
        headers: { cookie: "latchkey.session_token=xyz", authorization: "Bearer t", "set-cookie": "a=b" },
        password: "hunter2-hunter2",
        token: "reset-token-value",
        query: "?token=query-token-value",
        url: "/api/auth/reset-password/path-token-value?callbackURL=x",
        body: { password: "body-password" },
        email: "ada@example.com",
        nested: { token: "nested-token-value", password: "nested-password" },
      },
      "a line with secrets passed by mistake",
    );
    for (const secret of ["abc.sig", "metrics-token", "xyz", "hunter2", "reset-token-value", "query-token-value", "path-token-value", "body-password", "ada@example.com", "nested-token-value", "nested-password"]) {
      expect(text()).not.toContain(secret);
    }
    expect(text()).toContain("[redacted]");
  });

  it("scrub e-mail addresses from free text and errors (an SMTP refusal names its recipient)", () => {
    expect(scrub("550 5.1.1 <ada.lovelace+test@mail.example.co.uk>: Recipient address rejected")).toBe("550 5.1.1 <[email]>: Recipient address rejected");
    const { logger, text } = capturedLogger();
    logger.error({ err: new Error("could not deliver to bob@example.org") }, "mail failed");
    expect(text()).not.toContain("bob@example.org");
    expect(text()).toContain("[email]");
  });

  it("hold below LOG_LEVEL nothing", () => {
    const { logger, lines } = capturedLogger({ level: "warn" });
    logger.info({}, "request");
    logger.debug({}, "probe");
    logger.warn({}, "kept");
    expect(lines.map((line) => line.msg)).toEqual(["kept"]);
  });

  it("read as one short line for people with LOG_FORMAT=text", () => {
    const line = textLine({ time: "2026-12-02T05:40:00.000Z", level: "warn", msg: "request", status: 404, route: "unmatched" });
    expect(line).toBe("2026-12-02T05:40:00.000Z WARN  request status=404 route=unmatched\n");
    const { logger, text } = capturedLogger({ format: "text" });
    logger.info({ requestId: "r1" }, "request");
    expect(text()).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z INFO  request requestId=r1\n$/);
  });
});

describe("the request line", () => {
  /** A request and response as node:http hands them over, enough for the observer. */
  function exchange(url: string, headers: Record<string, string>) {
    const req = { method: "GET", url, headers } as unknown as import("node:http").IncomingMessage;
    const res = Object.assign(new EventEmitter(), {
      statusCode: 200,
      writableFinished: true,
      sent: {} as Record<string, string>,
      setHeader(name: string, value: string) {
        this.sent[name.toLowerCase()] = value;
      },
    });
    return { req, res };
  }

  it("holds no cookie, Authorization header, query string or raw path, and names the route", () => {
    const { logger, lines, text } = capturedLogger();
    const observe = createRequestObserver({ logger, recorder: null, routeLabel: () => "/api/auth/reset-password/:token", clientIp: () => "203.0.113.7" });
    const { req, res } = exchange("/api/auth/reset-password/path-secret?token=query-secret&callbackURL=/x", {
      cookie: "latchkey.session_token=cookie-secret.sig",
      authorization: "Bearer header-secret",
      "x-request-id": "given-id",
      traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    });
    const note = observe(req, res as never);
    note.userId = "user_1";
    expect(res.sent["x-request-id"]).toBe("given-id");
    expect((req as unknown as Record<symbol, unknown>)[REQUEST_NOTE]).toBe(note);
    res.emit("close");
    expect(lines).toEqual([
      {
        level: "info",
        time: expect.any(String),
        requestId: "given-id",
        method: "GET",
        route: "/api/auth/reset-password/:token",
        status: 200,
        durationMs: expect.any(Number),
        ip: "203.0.113.7",
        userId: "user_1",
        traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
        msg: "request",
      },
    ]);
    for (const secret of ["path-secret", "query-secret", "cookie-secret", "header-secret", "callbackURL"]) expect(text()).not.toContain(secret);
  });

  it("is an error for a 5xx, and debug for a health probe whatever it answers", () => {
    const { logger, lines } = capturedLogger({ level: "debug" });
    const observe = createRequestObserver({ logger, recorder: null, routeLabel: (path: string) => path, clientIp: () => "127.0.0.1" });
    for (const [path, status] of [["/health/ready", 503], ["/api/auth/ok", 500], ["/health/live", 200]] as const) {
      const { req, res } = exchange(path, {});
      observe(req, res as never);
      res.statusCode = status;
      res.emit("close");
    }
    expect(lines.map((line) => [line.route, line.level])).toEqual([
      ["/health/ready", "debug"],
      ["/api/auth/ok", "error"],
      ["/health/live", "debug"],
    ]);
  });
});

describe("console, through the logger", () => {
  it("becomes levelled lines without the [latchkey] prefix, an Error as err with its stack", () => {
    const { logger, lines } = capturedLogger();
    const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug };
    try {
      bridgeConsole(logger);
      console.log("[latchkey] listening on http://localhost:3000");
      console.warn("[latchkey] not sending a mail to carol@example.net");
      console.error("[latchkey] background work failed:", new Error("boom"));
      console.warn('No routes matched location "/reset-password/secret?token=1" ');
    } finally {
      Object.assign(console, saved);
    }
    expect(lines.map(({ level, msg }) => [level, msg])).toEqual([
      ["info", "listening on http://localhost:3000"],
      ["warn", "not sending a mail to [email]"],
      ["error", "background work failed"],
    ]);
    expect((lines[2].err as { stack: string }).stack).toContain("Error: boom");
  });
});

describe("the metrics token", () => {
  const TOKEN = "a-metrics-token-of-32-characters";
  it("is matched only as the Bearer credential", () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer ${TOKEN}`, TOKEN)).toBe(true);
    for (const header of [undefined, "", TOKEN, `Basic ${TOKEN}`, `Bearer ${TOKEN}x`, `Bearer ${TOKEN.slice(1)}`, "Bearer "]) {
      expect(bearerMatches(header, TOKEN)).toBe(false);
    }
  });
});

describe("the metrics and log variables", () => {
  const BASE = { NODE_ENV: "production", AUTH_SECRET: "unit-test-secret-0123456789-0123456789", BASE_URL: "http://localhost:3999", DATABASE_URL: "file:./tests/.tmp/never.db" };
  const refusal = (env: Record<string, string>) => {
    try {
      parseEnv({ ...BASE, ...env } as unknown as NodeJS.ProcessEnv);
    } catch (error) {
      expect((error as Error).name).toBe("ConfigurationError");
      return (error as Error).message;
    }
    throw new Error(`accepted ${JSON.stringify(env)}`);
  };

  it.each<[string, Record<string, string>]>([
    ["METRICS_PORT", { METRICS_PORT: "abc" }],
    ["METRICS_PORT", { METRICS_PORT: "70000" }],
    ["METRICS_PORT", { PORT: "3999", METRICS_PORT: "3999" }],
    ["METRICS_PATH", { METRICS_PORT: "9464", METRICS_PATH: "metrics" }],
    ["METRICS_PATH", { METRICS_PORT: "9464", METRICS_PATH: "/metrics?x=1" }],
    ["METRICS_TOKEN", { METRICS_PORT: "9464", METRICS_TOKEN: "short" }],
    ["METRICS_TOKEN", { METRICS_PORT: "9464", METRICS_TOKEN: "has a space in it, sixteen+" }],
    ["LOG_FORMAT", { LOG_FORMAT: "xml" }],
    ["LOG_LEVEL", { LOG_LEVEL: "verbose" }],
  ])("%s is refused in %j", (variable, env) => {
    expect(refusal(env)).toContain(variable);
  });

  it("takes the defaults and valid values", () => {
    const env = parseEnv(BASE as unknown as NodeJS.ProcessEnv);
    expect([env.METRICS_PORT, env.METRICS_PATH, env.LOG_FORMAT, env.LOG_LEVEL]).toEqual([undefined, "/metrics", "json", "info"]);
    const set = parseEnv({ ...BASE, METRICS_PORT: "9464", METRICS_HOST: "127.0.0.1", METRICS_PATH: "/internal/metrics", METRICS_TOKEN: "x".repeat(16), LOG_FORMAT: "text", LOG_LEVEL: "debug" } as unknown as NodeJS.ProcessEnv);
    expect([set.METRICS_PORT, set.METRICS_HOST, set.METRICS_PATH, set.LOG_FORMAT, set.LOG_LEVEL]).toEqual([9464, "127.0.0.1", "/internal/metrics", "text", "debug"]);
  });
});

describe("the tests' Prometheus reader (tests/support/prometheus.ts) is strict", () => {
  const good = '# HELP a_total A.\n# TYPE a_total counter\na_total{x="1"} 2\n# TYPE h histogram\nh_bucket{le="0.1"} 1\nh_bucket{le="+Inf"} 2\nh_sum 0.3\nh_count 2\n';
  it("reads good text", () => {
    expect(seriesValue(parsePrometheusText(good), "a_total", { x: "1" })).toBe(2);
  });
  it.each([
    ["a sample before its # TYPE", 'a_total{x="1"} 2\n# TYPE a_total counter\n'],
    ["a bad escape", '# TYPE a counter\na{x="\\t"} 1\n'],
    ["a bad name", "# TYPE 1a counter\n1a 1\n"],
    ["a repeated series", '# TYPE a counter\na{x="1"} 1\na{x="1"} 2\n'],
    ["an interleaved family", "# TYPE a counter\n# TYPE b counter\na 1\nb 1\na 2\n"],
    ["buckets not cumulative", '# TYPE h histogram\nh_bucket{le="0.1"} 2\nh_bucket{le="+Inf"} 1\nh_sum 1\nh_count 1\n'],
    ["no +Inf bucket", '# TYPE h histogram\nh_bucket{le="0.1"} 1\nh_sum 1\nh_count 1\n'],
    ["no final newline", "# TYPE a counter\na 1"],
  ])("refuses %s", (_why, text) => {
    expect(() => parsePrometheusText(text)).toThrow();
  });
});

describe("latchkey_database_errors_total counts the database failing, not refusing", () => {
  /** As @prisma/driver-adapter-utils throws them. */
  const adapterError = (cause: Record<string, unknown>) => Object.assign(new Error(String(cause.kind)), { name: "DriverAdapterError", cause });
  it.each([
    ["a refused connection", adapterError({ kind: "DatabaseNotReachable" })],
    ["a closed connection", adapterError({ kind: "ConnectionClosed" })],
    ["a socket timeout", adapterError({ kind: "SocketTimeout" })],
    ["PostgreSQL shutting down (57P01)", adapterError({ kind: "postgres", code: "57P01" })],
    ["PostgreSQL out of connections (53300)", adapterError({ kind: "postgres", code: "53300" })],
    ["SQLite busy past its timeout", adapterError({ kind: "sqlite", extendedCode: 5 })],
    ["a raw socket error under the driver", Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" })],
  ])("counts %s", (_what, error) => {
    expect(isDatabaseFailure(error)).toBe(true);
  });
  it.each([
    ["a unique index", adapterError({ kind: "UniqueConstraintViolation" })],
    ["a foreign key", adapterError({ kind: "ForeignKeyConstraintViolation" })],
    ["a PostgreSQL syntax error (42601)", adapterError({ kind: "postgres", code: "42601" })],
    ["a SQLite constraint (2067)", adapterError({ kind: "sqlite", extendedCode: 2067 })],
  ])("does not count %s", (_what, error) => {
    expect(isDatabaseFailure(error)).toBe(false);
  });
});
