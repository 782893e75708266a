import path from "node:path";
import { configDefaults, defineConfig } from "vitest/config";

const alias = { "~": path.resolve(import.meta.dirname, "app") };
// API suites run twice, once per database. Test servers come from the project's server pool (ADR 040): one per
// configuration, shared by the files asking for it; files that stop, kill or watch a server start their own.
const SERVER_POOL = "./tests/support/server-pool.ts";
const apiProject = (database: "sqlite" | "postgres") => ({
  resolve: { alias },
  test: {
    name: `api-${database}`,
    include: ["tests/api/**/*.test.ts"],
    // Start-up configuration fails before any database is touched: checked once, on the SQLite run.
    exclude: database === "postgres" ? ["tests/api/config.test.ts"] : [],
    env: { TEST_DATABASE: database },
    globalSetup: [SERVER_POOL],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

const REMIX_DISPATCH_FILES = [
  "dispatch-path",
  "routes",
  "security-headers",
  "keep-alive",
  "robustness",
  "hardening",
  "security",
  "sign-in",
  "session",
  "rate-limit",
  "redirect-targets",
  "social-oidc",
  // Route labels, request ids and the signed-in user on the request line, through express too (ADR 062).
  "metrics",
];

export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: 3,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "tests/unit/**/*.test.ts"],
          // The in-process suites run once per database (<name>.sqlite.test.ts, <name>.postgres.test.ts).
          exclude: [...configDefaults.exclude, ...(process.env.TEST_SKIP_POSTGRES === "1" ? ["tests/unit/**/*.postgres.test.ts"] : [])],
          environment: "node",
          testTimeout: 30_000,
          env: { AUTH_SECRET: "unit-test-secret-0123456789-0123456789", BASE_URL: "http://localhost:3000", DATABASE_URL: "file:./tests/.tmp/unit.db" },
        },
      },
      apiProject("sqlite"),
      ...(process.env.TEST_SKIP_POSTGRES === "1" ? [] : [apiProject("postgres")]),
      // The API dispatch must answer as Remix's own handler does (ADR 023): the files that pin statuses,
      // headers, cookies, errors, HEAD and bodies run again with the API served by express + Remix.
      {
        resolve: { alias },
        test: {
          name: "api-remix-dispatch",
          include: REMIX_DISPATCH_FILES.map((file) => `tests/api/${file}.test.ts`),
          env: { TEST_DATABASE: "sqlite", LATCHKEY_API_DISPATCH: "remix" },
          globalSetup: [SERVER_POOL],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
