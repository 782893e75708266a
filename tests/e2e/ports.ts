// The browser suite's local ports. E2E_PORT moves all of them (app, SMTP, mail API, OpenID provider = base, +1, +2, +3), so two
// checkouts can run their browser tests side by side.
export const E2E_PORT = Number(process.env.E2E_PORT ?? 3210);
export const E2E_SMTP_PORT = E2E_PORT + 1;
export const E2E_MAIL_API_PORT = E2E_PORT + 2;
export const E2E_IDP_PORT = E2E_PORT + 3;
