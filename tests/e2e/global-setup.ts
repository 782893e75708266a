// Starts a real SMTP server for the browser tests (the app under test sends to it) and a small local HTTP
// endpoint through which the specs, which run in worker processes, read what arrived.
import { createServer } from "node:http";
import { Mailbox } from "../support/mailbox";
import { E2E_MAIL_API_PORT, E2E_SMTP_PORT } from "./ports";

export default async function globalSetup() {
  const mailbox = await new Mailbox().start(E2E_SMTP_PORT);
  const api = createServer((_request, response) => {
    response.setHeader("Content-Type", "application/json");
    response.end(JSON.stringify(mailbox.messages));
  });
  await new Promise<void>((resolve) => api.listen(E2E_MAIL_API_PORT, "127.0.0.1", resolve));
  return async () => {
    await new Promise<void>((resolve) => api.close(() => resolve()));
    await mailbox.stop();
  };
}
