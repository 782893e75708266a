import { defineConfig } from "@playwright/test";

import { E2E_PORT } from "./tests/e2e/ports";

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  // Two workers, one browser each, and each with a server and database of its own (tests/e2e/fixtures.ts):
  // they share the SMTP server and the test OpenID provider of global-setup.ts, whose identity only one spec
  // file sets.
  workers: 2,
  retries: 0,
  timeout: 30_000,
  reporter: [["list"], ["json", { outputFile: "tests/.tmp/results/playwright.json" }]],
  use: {
    // The worker's server (fixtures.ts) replaces this; a spec that needs no server (axe-check) stays here.
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: "off",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  globalSetup: "./tests/e2e/global-setup.ts",
});
