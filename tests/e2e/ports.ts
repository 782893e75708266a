// The browser suite's fixed local ports. E2E_PORT moves all of them (SMTP, mail API, OpenID provider = base +1, +2,
// +3), so two checkouts can run their browser tests side by side; each worker's app server takes a free port
// (tests/e2e/fixtures.ts), and the base itself is only the address of the spec that needs no server (axe-check).
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_SMTP_PORT = E2E_PORT + 1;
export const E2E_MAIL_API_PORT = E2E_PORT + 2;
export const E2E_IDP_PORT = E2E_PORT + 3;
