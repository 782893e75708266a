// Starts a real SMTP server for the browser tests (the app under test sends to it) and a small local HTTP
// endpoint through which the specs, which run in worker processes, read what arrived.
import { createServer } from "node:http";
import { Mailbox } from "../support/mailbox";
import { OAuth2Server } from "oauth2-mock-server";
import { E2E_IDP_PORT, E2E_MAIL_API_PORT, E2E_SMTP_PORT } from "./ports";

export default async function globalSetup() {
  const mailbox = await new Mailbox().start(E2E_SMTP_PORT);
  // A local OpenID provider for "Continue with Test SSO": it approves at once and vouches for the identity the
  // spec last set through POST /idp-identity.
  const idp = new OAuth2Server();
  await idp.issuer.keys.generate("RS256");
  await idp.start(E2E_IDP_PORT, "localhost");
  let identity: Record<string, unknown> = {};
  idp.service.on("beforeTokenSigning", (token) => Object.assign(token.payload, identity));
  idp.service.on("beforeUserinfo", (response) => void (response.body = { ...identity }));
  const api = createServer((request, response) => {
    response.setHeader("Content-Type", "application/json");
    if (request.method === "POST" && request.url === "/idp-identity") {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        identity = JSON.parse(body);
        response.end("{}");
      });
      return;
    }
    response.end(JSON.stringify(mailbox.messages));
  });
  await new Promise<void>((resolve) => api.listen(E2E_MAIL_API_PORT, "127.0.0.1", resolve));
  return async () => {
    await new Promise<void>((resolve) => api.close(() => resolve()));
    await mailbox.stop();
    await idp.stop();
  };
}
