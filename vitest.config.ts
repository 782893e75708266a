import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "~": path.resolve(import.meta.dirname, "app") };
// API suites run twice, once per database; each test file starts its own server process(es).
const apiProject = (database: "sqlite" | "postgres") => ({
  resolve: { alias },
  test: {
    name: `api-${database}`,
    include: ["tests/api/**/*.test.ts"],
    // Start-up configuration fails before any database is touched: checked once, on the SQLite run.
    exclude: database === "postgres" ? ["tests/api/config.test.ts"] : [],
    env: { TEST_DATABASE: database },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

export default defineConfig({
  resolve: { alias },
  test: {
    maxWorkers: 2,
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["app/**/*.test.ts", "tests/unit/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          env: { AUTH_SECRET: "unit-test-secret-0123456789-0123456789", BASE_URL: "http://localhost:3000", DATABASE_URL: "file:./tests/.tmp/unit.db" },
        },
      },
      apiProject("sqlite"),
      ...(process.env.TEST_SKIP_POSTGRES === "1" ? [] : [apiProject("postgres")]),
    ],
  },
});
