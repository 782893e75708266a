import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, signUp, uniqueEmail } from "../support/client";
import { actionLink, Mailbox } from "../support/mailbox";
import { startServer, type TestServer } from "../support/server";

let mailbox: Mailbox;
let server: TestServer;
beforeAll(async () => {
  mailbox = await new Mailbox().start();
  server = await startServer({ env: { SMTP_URL: mailbox.url } });
});
afterAll(async () => {
  await server?.stop();
  await mailbox?.stop();
});

describe("e-mail verification (optional, the default)", () => {
  it("sends a verification mail on sign-up whose link verifies the address", async () => {
    const client = new ApiClient(server.baseUrl);
    const { email } = await signUp(client);
    const mail = await mailbox.waitFor(email, /Verify/);
    expect(mail.subject).toContain("Latchkey");
    expect(mail.text).toMatch(/expires in 1 hour/);
    expect(mail.html).toContain("<a href=");
    const link = actionLink(mail);
    expect(link.startsWith(`${server.baseUrl}/api/auth/verify-email?token=`)).toBe(true);
    const browser = new ApiClient(server.baseUrl);
    const response = await browser.get(link);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/email-verified");
    const session = await client.get("/api/auth/get-session");
    expect(session.body.user.emailVerified).toBe(true);
  });
});
