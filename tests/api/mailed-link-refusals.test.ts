// A link opened from a mail that is refused before its own check (too many requests, a callbackURL this site no
// longer trusts) takes a browser to the link's page, which says why in words; a client asking for JSON keeps
// Better Auth's answer. The links' own failures (a bad token…) are tested with each flow.
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { sharedServer, type TestServer } from "../support/server";

const BROWSER = { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" };
const UNTRUSTED = encodeURIComponent("https://evil.example/landing");

/** The three links mail carries, each with the page a browser lands on. */
const LINKS = [
  { link: "/api/auth/verify-email?token=whatever", page: "/email-verified", pageSays: "no longer trusts" },
  { link: "/api/auth/delete-user/callback?token=whatever", page: "/account-deleted", pageSays: "no longer trusts" },
  { link: "/api/auth/reset-password/whatever", page: "/reset-password", pageSays: "no longer trusts" },
];

let server: TestServer;
let limited: TestServer;
beforeAll(async () => {
  [server, limited] = await Promise.all([sharedServer(), sharedServer({ env: { AUTH_RATE_LIMIT: "on", TRUST_PROXY: "true" } })]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), limited?.stop()]);
});

describe("a callbackURL no longer trusted", () => {
  for (const { link, page, pageSays } of LINKS) {
    it(`${link.split("?")[0]}: a browser lands on ${page}, which says why; JSON clients get 403`, async () => {
      const target = `${link}${link.includes("?") ? "&" : "?"}callbackURL=${UNTRUSTED}`;
      const browser = new ApiClient(server.baseUrl);
      const landed = await browser.get(target, BROWSER);
      expect(landed.status).toBe(302);
      expect(landed.headers.get("location")).toBe(`${server.baseUrl}${page}?error=invalid_callbackurl`);
      const shown = await browser.get(new URL(landed.headers.get("location")!).pathname + "?error=invalid_callbackurl", BROWSER);
      expect(shown.status).toBe(200);
      expect(shown.text).toContain(pageSays);

      const json = await new ApiClient(server.baseUrl).get(target, { accept: "application/json" });
      expect(json.status).toBe(403);
      expect(json.body).toEqual({ code: "INVALID_CALLBACKURL", message: "Invalid callbackURL" });
    });
  }
});

describe("too many requests", () => {
  it("a browser past the limit lands on the link's page, also while the refusal stands; JSON clients get 429", async () => {
    const address = `10.${[...randomBytes(3)].join(".")}`;
    const from = { ...BROWSER, "x-forwarded-for": address };
    const client = new ApiClient(limited.baseUrl);
    // The default rule: 100 requests in 10 s per address and path. A bad token lands on the page with its own error.
    const answers = await Promise.all(Array.from({ length: 100 }, () => client.get("/api/auth/verify-email?token=nope", from)));
    expect(answers.map((answer) => answer.headers.get("location"))).toEqual(Array(100).fill(`${limited.baseUrl}/email-verified?error=invalid_token`));
    for (let attempt = 0; attempt < 2; attempt++) {
      // The second is answered from the standing refusal, which the production dispatch would give as JSON.
      const refused = await client.get("/api/auth/verify-email?token=nope", from);
      expect(refused.status).toBe(302);
      expect(refused.headers.get("location")).toBe(`${limited.baseUrl}/email-verified?error=too_many_requests`);
    }
    const page = await client.get("/email-verified?error=too_many_requests", BROWSER);
    expect(page.text).toContain("Too many requests came from your network");

    const json = await client.get("/api/auth/verify-email?token=nope", { accept: "application/json", "x-forwarded-for": address });
    expect(json.status).toBe(429);
    expect(json.body).toEqual({ code: "TOO_MANY_REQUESTS", message: "Too many requests" });
  });
});
