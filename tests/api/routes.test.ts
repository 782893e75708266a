// The plain routes: health check, the error page, unknown paths and wrong methods.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient } from "../support/client";
import { sharedServer, type TestServer } from "../support/server";

let server: TestServer;
let client: ApiClient;
beforeAll(async () => {
  server = await sharedServer();
  client = new ApiClient(server.baseUrl);
});
afterAll(async () => {
  await server?.stop();
});

describe("GET /api/auth/ok", () => {
  it("answers {ok: true} as JSON", async () => {
    const response = await client.get("/api/auth/ok");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.body).toEqual({ ok: true });
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
  });
});

describe("HEAD and oversized bodies", () => {
  it("answers HEAD on a GET endpoint like GET, without a body", async () => {
    const response = await fetch(`${server.baseUrl}/api/auth/ok`, { method: "HEAD" });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("");
  });

  it("refuses a body over 64 KiB with 413 before reading it as JSON", async () => {
    const response = await client.request("POST", "/api/auth/sign-in/email", {
      rawBody: JSON.stringify({ email: "a@example.com", password: "x".repeat(70 * 1024) }),
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(413);
    expect(response.body).toEqual({ code: "PAYLOAD_TOO_LARGE", message: "Payload too large" });
  });
});

describe("chunked uploads without Content-Length", () => {
  /** 100 KiB sent as a stream, so the request carries Transfer-Encoding: chunked and no length. */
  const chunked = (path: string, contentType: string) =>
    fetch(`${server.baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": contentType, origin: server.baseUrl },
      body: new ReadableStream({
        start(controller) {
          for (let i = 0; i < 100; i++) controller.enqueue(new TextEncoder().encode("a".repeat(1024)));
          controller.close();
        },
      }),
      duplex: "half",
    } as RequestInit);

  it("are cut off at 64 KiB on the API with 413", async () => {
    const response = await chunked("/api/auth/sign-in/email", "application/json");
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ code: "PAYLOAD_TOO_LARGE", message: "Payload too large" });
  });

  it("are cut off at 64 KiB on a page action with 413", async () => {
    const response = await chunked("/sign-in", "application/x-www-form-urlencoded");
    expect(response.status).toBe(413);
  });
});

describe("GET /api/auth/error", () => {
  it("shows the error code from ?error= and a Return to Application link", async () => {
    const response = await client.get("/api/auth/error?error=state_not_found");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    expect(response.text).toContain("Error Code");
    expect(response.text).toContain("state_not_found");
    expect(response.text).toMatch(/<a href="\/">Return to Application<\/a>/);
  });

  it('shows "Unknown" when there is no error code', async () => {
    for (const path of ["/api/auth/error", "/api/auth/error?error=", "/api/auth/error?error=%20%20"]) {
      const response = await client.get(path);
      expect(response.status, path).toBe(200);
      expect(response.text, path).toMatch(/data-testid="error-code">Unknown</);
      expect(response.text, path).toContain("Return to Application");
    }
  });

  it("escapes the code, so a crafted link cannot inject markup", async () => {
    const payload = `<script>alert("x")</script>&'`;
    const response = await client.get(`/api/auth/error?error=${encodeURIComponent(payload)}`);
    expect(response.status).toBe(200);
    expect(response.text).not.toContain("<script>");
    expect(response.text).toContain("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;");
  });
});

describe("unknown paths and wrong methods", () => {
  it("answers 404 {code, message} for a path without a route", async () => {
    for (const method of ["GET", "POST"]) {
      const response = await client.request(method, "/api/auth/no-such-endpoint", method === "POST" ? { body: {} } : {});
      expect(response.status, method).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/);
      expect(response.body).toEqual({ code: "NOT_FOUND", message: "Not found" });
    }
    const nested = await client.get("/api/auth/sign-in/no-such-provider");
    expect(nested.status).toBe(404);
    expect(nested.body.code).toBe("NOT_FOUND");
  });

  it("answers 405 {code, message} with an Allow header for a known path with the wrong method", async () => {
    const cases: Array<[string, string, string]> = [
      ["GET", "/api/auth/sign-in/email", "POST"],
      ["GET", "/api/auth/sign-up/email", "POST"],
      ["GET", "/api/auth/sign-out", "POST"],
      ["POST", "/api/auth/get-session", "GET"],
      ["POST", "/api/auth/ok", "GET"],
      ["PUT", "/api/auth/update-user", "POST"],
      ["DELETE", "/api/auth/list-sessions", "GET"],
    ];
    for (const [method, path, allowed] of cases) {
      const response = await client.request(method, path, method === "GET" ? {} : { body: {} });
      expect(response.status, `${method} ${path}`).toBe(405);
      expect(response.body, `${method} ${path}`).toEqual({ code: "METHOD_NOT_ALLOWED", message: "Method not allowed" });
      expect(response.headers.get("allow"), `${method} ${path}`).toBe(allowed);
    }
  });
});
