// Issue 7 on the server side of the pages: words for people on pages while the JSON API keeps the
// specification's messages, one-time messages after a redirect that cannot be forged, the development outbox
// named at start-up and linked where a page says mail was sent, and a mistyped URL logged as one line.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, PASSWORD, uniqueEmail, shownText } from "../support/client";
import { logLines } from "../support/log-lines";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ env: { AUTH_EMAIL_VERIFICATION: "required" } });
});
afterAll(async () => {
  await server?.stop();
});

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe("pages speak to people; the JSON API keeps the specification's words", () => {
  it("a too-short password is 'Use at least 8 characters.' on the page and PASSWORD_TOO_SHORT on the API", async () => {
    const page = await new ApiClient(server.baseUrl).request("POST", "/sign-up", {
      rawBody: form({ name: "Ada", email: uniqueEmail("short"), password: "1234567" }),
      headers: FORM,
    });
    expect(page.status).toBe(400);
    expect(page.text).toContain("Use at least 8 characters.");
    expect(page.text).toContain("<title>Error: Sign up · Latchkey</title>");
    expect(page.text).not.toContain('role="alert"');

    const api = await new ApiClient(server.baseUrl).post("/api/auth/sign-up/email", { name: "Ada", email: uniqueEmail("short"), password: "1234567" });
    expect(api.body).toEqual({ code: "PASSWORD_TOO_SHORT", message: "Password too short" });
  });

  it("a refused sign-in code is 'That code is not right…' on the page and INVALID_OTP 'Invalid OTP' on the API", async () => {
    const email = uniqueEmail("otp-words");
    const page = await new ApiClient(server.baseUrl).request("POST", "/sign-in/code?step=code", {
      rawBody: form({ email, otp: "123456" }),
      headers: FORM,
    });
    expect(page.status).toBe(400);
    expect(page.text).toContain("That code is not right. Check the email and try again, or send a new code.");
    expect(shownText(page.text)).not.toContain("Invalid OTP");
    expect(page.text).toContain("<title>Error: Sign in with a code · Latchkey</title>");

    const api = await new ApiClient(server.baseUrl).post("/api/auth/sign-in/email-otp", { email, otp: "123456" });
    expect(api.body).toEqual({ code: "INVALID_OTP", message: "Invalid OTP" });
  });

  it("a provider's ?error= on the sign-in page is in the error summary, focused on load, with 'Error:' in the title", async () => {
    const page = await new ApiClient(server.baseUrl).get("/sign-in?error=access_denied");
    expect(page.status).toBe(200);
    expect(page.text).toContain("<title>Error: Sign in · Latchkey</title>");
    expect(page.text).toMatch(/class="error-summary"[^>]*autofocus[^>]*>.*You cancelled the sign-in at the provider/s);
    expect(page.text).not.toContain('role="alert"');
    const plain = await new ApiClient(server.baseUrl).get("/sign-in");
    expect(plain.text).toContain("<title>Sign in · Latchkey</title>");
    expect(plain.text).not.toContain("error-summary");
  });
});

describe("after sign-up, where the mail went", () => {
  it("the sign-in page names the address once, with a link to the development outbox", async () => {
    const client = new ApiClient(server.baseUrl);
    const email = uniqueEmail("outbox");
    const posted = await client.request("POST", "/sign-up", { rawBody: form({ name: "Ada", email, password: PASSWORD }), headers: FORM });
    expect(posted.status).toBe(302);
    expect(posted.headers.get("location")).toBe("/sign-in?verify=1");

    const first = await client.get("/sign-in?verify=1");
    expect(first.text).toContain(`We sent a verification link to ${email}`);
    expect(first.text).toContain('href="/dev/outbox"');
    expect(first.text).toContain(`value="${email}"`);
    const again = await client.get("/sign-in?verify=1");
    expect(shownText(again.text)).not.toContain("We sent a verification link");
  });

  it("the account page links an unverified address to the outbox too", async () => {
    const optional = await startServer({ env: { AUTH_EMAIL_VERIFICATION: "optional" } });
    try {
      const client = new ApiClient(optional.baseUrl);
      const email = uniqueEmail("banner");
      const posted = await client.request("POST", "/sign-up", { rawBody: form({ name: "Ada", email, password: PASSWORD }), headers: FORM });
      expect(posted.status).toBe(302);
      const account = await client.get("/account");
      expect(account.text).toContain(`Welcome, Ada. We sent a verification link to ${email}.`);
      expect(account.text).toContain("is not verified yet.");
      expect(account.text).toContain('href="/dev/outbox"');
    } finally {
      await optional.stop();
    }
  });

  it("names the outbox at start-up", () => {
    expect(server.output()).toContain(`kept at ${server.baseUrl.replace("127.0.0.1", "localhost")}/dev/outbox`);
  });
});

describe("one-time messages", () => {
  it("ignores a message it did not sign", async () => {
    const client = new ApiClient(server.baseUrl);
    const forged = Buffer.from(JSON.stringify({ text: "Your account was upgraded" })).toString("base64url");
    client.cookies.set("latchkey.flash", `${forged}.not-a-signature`);
    const page = await client.get("/sign-in");
    expect(shownText(page.text)).not.toContain("Your account was upgraded");
  });

  it("/email-verified opened directly claims nothing", async () => {
    const page = await new ApiClient(server.baseUrl).get("/email-verified");
    expect(page.status).toBe(200);
    expect(page.text).toContain("There is nothing to confirm here.");
    expect(shownText(page.text)).not.toMatch(/is verified|Change confirmed/);
  });
});

describe("a mistyped URL", () => {
  it("answers 404 and logs one line, its request's, without the path (issue 40)", async () => {
    const before = server.output().length;
    const requestId = `mistyped-${Date.now()}`;
    const response = await fetch(`${server.baseUrl}/acount/setings?token=abc`, { headers: { "X-Request-Id": requestId } });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("Page not found");
    // The line may be written a moment after the answer: waited for (not a fixed pause a loaded machine outlasts).
    await expect.poll(() => server.output().slice(before), { timeout: 10_000 }).toContain(requestId);
    // Only request lines (an earlier test's may land here too), and this request's is one line.
    const logged = logLines(server.output().slice(before));
    expect(logged.filter((line) => line.msg !== "request")).toEqual([]);
    expect(logged.filter((line) => line.requestId === requestId)).toEqual([
      expect.objectContaining({ level: "info", msg: "request", method: "GET", route: "unmatched", status: 404 }),
    ]);
    expect(server.output().slice(before)).not.toContain("setings");
  });
});
