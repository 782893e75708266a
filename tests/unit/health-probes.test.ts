// server/health.mjs with stand-in dependencies (docs/decisions/064-health-probes-and-containers.md): what gates,
// the time bounds, the 2-second reuse, one call in flight per dependency, giving up on a call that never answers,
// what is logged and what is counted. The HTTP side, on real databases, is tests/api/health.test.ts.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createHealth } from "../../server/health.mjs";

const MIGRATIONS = ["20260101000000_init", "20260102000000_more"];

/** A dependency call that settles when the test says. */
function deferred() {
  let resolve!: () => void;
  let reject!: (error: Error) => void;
  const promise = new Promise<void>((yes, no) => ((resolve = yes), (reject = no)));
  return { promise, resolve, reject };
}

function setUp(overrides: Partial<{ selectOne: () => Promise<void>; finishedMigrations: () => Promise<string[]>; redisPing: (() => Promise<void>) | null }> = {}) {
  const calls = { selectOne: 0, finishedMigrations: 0, redisPing: 0 };
  const warnings: string[] = [];
  const infos: string[] = [];
  const failures: [string, boolean][] = [];
  const hooks = {
    databaseKind: "sqlite" as const,
    selectOne: async () => {
      calls.selectOne++;
      return overrides.selectOne?.();
    },
    finishedMigrations: async () => {
      calls.finishedMigrations++;
      return overrides.finishedMigrations ? overrides.finishedMigrations() : MIGRATIONS;
    },
    redisPing:
      overrides.redisPing === null
        ? null
        : async () => {
            calls.redisPing++;
            return overrides.redisPing?.();
          },
    countFailure: () => {},
  };
  const health = createHealth({
    hooks,
    expectedMigrations: MIGRATIONS,
    strictTransport: false,
    log: { warn: (message: string) => warnings.push(message), info: (message: string) => infos.push(message) },
    onFailure: (dependency: string, timedOut: boolean) => failures.push([dependency, timedOut]),
  });
  return { health, calls, warnings, infos, failures };
}

const statuses = (result: { status: string; checks: { name: string; status: string }[] }) =>
  Object.fromEntries([["ready", result.status], ...result.checks.map((check) => [check.name, check.status])]);

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe("readiness", () => {
  it("is UP with every check UP, and names the checks in order", async () => {
    const { health } = setUp();
    const result = await health.readiness();
    expect(result).toEqual({
      status: "UP",
      checks: [
        { name: "database", status: "UP" },
        { name: "migrations", status: "UP" },
        { name: "redis", status: "UP" },
      ],
    });
  });

  it("has no redis check without REDIS_URL", async () => {
    const { health } = setUp({ redisPing: null });
    expect((await health.readiness()).checks.map((check) => check.name)).toEqual(["database", "migrations"]);
  });

  it("gates on the database and the migrations, never on Redis", async () => {
    const redisDown = setUp({ redisPing: () => Promise.reject(new Error("ECONNREFUSED 10.0.0.5:6379")) });
    expect(statuses(await redisDown.health.readiness())).toEqual({ ready: "UP", database: "UP", migrations: "UP", redis: "DOWN" });

    const databaseDown = setUp({ selectOne: () => Promise.reject(new Error("refused")), finishedMigrations: () => Promise.reject(new Error("refused")) });
    expect(statuses(await databaseDown.health.readiness())).toEqual({ ready: "DOWN", database: "DOWN", migrations: "DOWN", redis: "UP" });

    const oneMissing = setUp({ finishedMigrations: async () => [MIGRATIONS[0]] });
    expect(statuses(await oneMissing.health.readiness())).toEqual({ ready: "DOWN", database: "UP", migrations: "DOWN", redis: "UP" });
  });

  it("stays ready when the database has migrations newer than the build (a rolling deploy)", async () => {
    const { health } = setUp({ finishedMigrations: async () => [...MIGRATIONS, "20270101000000_newer"] });
    expect((await health.readiness()).status).toBe("UP");
  });

  it("answers within the dependencies' time bounds (2 s database, 1 s Redis) when they never answer", async () => {
    const never = () => new Promise<never>(() => {});
    const { health, failures } = setUp({ selectOne: never, finishedMigrations: never, redisPing: never });
    let result: Awaited<ReturnType<typeof health.readiness>> | undefined;
    void health.readiness().then((value) => (result = value));
    await vi.advanceTimersByTimeAsync(1_999);
    expect(result).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(result && statuses(result)).toEqual({ ready: "DOWN", database: "DOWN", migrations: "DOWN", redis: "DOWN" });
    // Redis's second ran out first.
    expect(failures).toEqual([
      ["redis", true],
      ["database", true],
      ["database", true],
    ]);
  });

  it("reuses a result for 2 s, and concurrent probes share one evaluation", async () => {
    const { health, calls } = setUp();
    await Promise.all([health.readiness(), health.readiness(), health.readiness()]);
    expect(calls.selectOne).toBe(1);
    await vi.advanceTimersByTimeAsync(1_900);
    await health.readiness();
    expect(calls.selectOne).toBe(1);
    await vi.advanceTimersByTimeAsync(200);
    await health.readiness();
    expect(calls.selectOne).toBe(2);
  });

  it("waits on a call still in flight instead of starting another, and gives up on it after 10 s", async () => {
    const hung = deferred();
    let first = true;
    const { health, calls } = setUp({
      selectOne: () => {
        if (first) {
          first = false;
          return hung.promise;
        }
        return Promise.resolve();
      },
    });
    for (let second = 0; second < 9; second += 3) {
      const answer = health.readiness();
      await vi.advanceTimersByTimeAsync(3_000);
      expect(statuses(await answer).database).toBe("DOWN");
    }
    expect(calls.selectOne).toBe(1);
    // Past 10 s the hung call is left behind: a fresh one answers.
    await vi.advanceTimersByTimeAsync(2_000);
    const answer = health.readiness();
    await vi.advanceTimersByTimeAsync(10);
    expect(statuses(await answer)).toMatchObject({ ready: "UP", database: "UP" });
    expect(calls.selectOne).toBe(2);
    hung.reject(new Error("too late")); // settles unobserved, without an unhandled rejection
  });

  it("logs a check going DOWN once (with why) and coming back once, not every probe", async () => {
    let down = true;
    const { health, warnings, infos } = setUp({ selectOne: () => (down ? Promise.reject(new Error("connect ECONNREFUSED db:5432")) : Promise.resolve()) });
    for (let i = 0; i < 3; i++) {
      await health.readiness();
      await vi.advanceTimersByTimeAsync(2_001);
    }
    expect(warnings).toEqual(["[latchkey] readiness: database is DOWN: connect ECONNREFUSED db:5432"]);
    down = false;
    await health.readiness();
    await vi.advanceTimersByTimeAsync(2_001);
    await health.readiness();
    expect(infos).toEqual(["[latchkey] readiness: database is UP again"]);
  });

  it("counts failed calls by dependency, and a missing migration not at all", async () => {
    const { health, failures } = setUp({
      selectOne: () => Promise.reject(new Error("lost")),
      finishedMigrations: async () => [],
      redisPing: () => Promise.reject(new Error("refused")),
    });
    await health.readiness();
    expect(failures).toEqual([
      ["database", false],
      ["redis", false],
    ]);
  });
});

describe("match", () => {
  const request = (method: string, url: string) => ({ method, url }) as never;
  it("takes GET and HEAD of the two exact paths, a query ignored, and nothing else", () => {
    const { health } = setUp();
    expect(health.match(request("GET", "/health/live"))).toBe("/health/live");
    expect(health.match(request("HEAD", "/health/ready?x=1"))).toBe("/health/ready");
    expect(health.match(request("POST", "/health/ready"))).toBeNull();
    expect(health.match(request("GET", "/health/ready/"))).toBeNull();
    expect(health.match(request("GET", "/health"))).toBeNull();
    expect(health.match(request("GET", "/HEALTH/LIVE"))).toBeNull();
  });
});
