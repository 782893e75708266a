import { defineConfig } from "@playwright/test";

import { E2E_IDP_PORT, E2E_PORT, E2E_SMTP_PORT } from "./tests/e2e/ports";

export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  // Two workers, one browser each, against the one server: every spec makes its own users (unique addresses), and
  // the only shared state, the test OpenID provider's identity, is used by one spec file.
  workers: 2,
  retries: 0,
  timeout: 30_000,
  reporter: [["list"], ["json", { outputFile: "tests/.tmp/results/playwright.json" }]],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    trace: "off",
    launchOptions: {
      executablePath: "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    },
  },
  globalSetup: "./tests/e2e/global-setup.ts",
  webServer: {
    command: "node tests/support/e2e-server.mjs",
    url: `http://localhost:${E2E_PORT}/api/auth/ok`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: {
      E2E_PORT: String(E2E_PORT),
      // Mail goes to the SMTP server of tests/e2e/global-setup.ts; deletion asks for the e-mailed confirmation.
      E2E_EXTRA_ENV: JSON.stringify({
        SMTP_URL: `smtp://127.0.0.1:${E2E_SMTP_PORT}`,
        AUTH_DELETE_ACCOUNT: "email",
        // "Continue with Test SSO": the OpenID provider of tests/e2e/global-setup.ts.
        OIDC_ISSUER: `http://localhost:${E2E_IDP_PORT}`,
        OIDC_CLIENT_ID: "latchkey-e2e",
        OIDC_CLIENT_SECRET: "latchkey-e2e-secret",
        OIDC_PROVIDER_NAME: "Test SSO",
      }),
    },
  },
});
