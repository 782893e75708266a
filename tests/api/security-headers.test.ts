// Response headers a browser relies on (issue 6, hygiene): a Content-Security-Policy whose nonce every inline
// script carries, no framing, no caching of pages, no Referer leaking tokens, and HSTS when served over https.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, signUp } from "../support/client";
import { sharedServer, type TestServer } from "../support/server";

let server: TestServer;
let httpsServer: TestServer;
beforeAll(async () => {
  [server, httpsServer] = await Promise.all([
    sharedServer(),
    // Served over plain http in the test, but configured as the https site it would be behind a proxy.
    sharedServer({ env: { BASE_URL: "https://auth.example.com", TRUSTED_ORIGINS: "http://localhost:*" } }),
  ]);
});
afterAll(async () => {
  await Promise.all([server?.stop(), httpsServer?.stop()]);
});

const PAGES = ["/", "/sign-in", "/sign-up", "/forgot-password", "/reset-password?token=abc", "/email-verified", "/account"];

describe("pages", () => {
  it.each(PAGES)("%s sends a CSP with a fresh nonce on every inline script, no-store and no framing", async (path) => {
    const client = new ApiClient(server.baseUrl);
    // Signed in, /sign-in and /sign-up send you on to your account: they are read signed out.
    if (path !== "/sign-in" && path !== "/sign-up") await signUp(client);
    const first = await client.get(path);
    const second = await client.get(path);
    expect(first.status).toBe(200);
    const csp = first.headers.get("content-security-policy") ?? "";
    const nonce = csp.match(/script-src 'self' 'nonce-([A-Za-z0-9+/=]+)'/)?.[1];
    expect(nonce, csp).toBeDefined();
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("base-uri 'none'");
    expect(csp).not.toContain("unsafe-inline");
    expect(second.headers.get("content-security-policy")).not.toContain(nonce!);
    const inlineScripts = [...first.text.matchAll(/<script(?![^>]*\bsrc=)([^>]*)>/g)];
    expect(inlineScripts.length).toBeGreaterThan(0);
    for (const [, attributes] of inlineScripts) expect(attributes).toContain(`nonce="${nonce}"`);
    expect(first.text).not.toMatch(/\sstyle="/);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    expect(first.headers.get("referrer-policy")).toBe("same-origin");
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("strict-transport-security")).toBeNull();
  });

  it("a signed-out visit to the account page is a redirect that is not cached either", async () => {
    const response = await new ApiClient(server.baseUrl).get("/account");
    expect(response.status).toBe(302);
  });
});

describe("the API", () => {
  it("answers with nosniff once, no-store and the same Referrer-Policy", async () => {
    const response = await new ApiClient(server.baseUrl).get("/api/auth/get-session");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
  });
});

describe("HSTS", () => {
  it("is sent on every answer when BASE_URL is https, and never otherwise", async () => {
    for (const path of ["/", "/api/auth/ok", "/favicon.ico"]) {
      const secure = await new ApiClient(httpsServer.baseUrl).get(path);
      expect(secure.headers.get("strict-transport-security"), path).toMatch(/^max-age=\d{8,}/);
      const plain = await new ApiClient(server.baseUrl).get(path);
      expect(plain.headers.get("strict-transport-security"), path).toBeNull();
    }
  });
});
