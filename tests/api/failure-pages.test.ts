// Issue 41's failure pages and one-time notices, read as HTML: an address the server cannot decode (GET /%) is a
// page in words like the other refusals; a used reset link and an unknown invitation say "Error:" in the title;
// a notice set for one page is not shown on another one visited within its minute.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiClient, signUp } from "../support/client";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

const HTML = { accept: "text/html,application/xhtml+xml" };
const FORM = { "content-type": "application/x-www-form-urlencoded" };

describe("failure pages", () => {
  it("GET /% is a page in words for a browser, the short text for anyone else", async () => {
    const client = new ApiClient(server.baseUrl);
    const page = await client.get("/%", HTML);
    expect(page.status).toBe(400);
    expect(page.text).toContain("<title>Error: We could not read that request · Latchkey</title>");
    expect(page.text).toContain("Check the address, or start again from the home page.");
    expect(page.text).not.toContain("<pre>Bad Request</pre>");
    const plain = await client.get("/%");
    expect(plain.status).toBe(400);
    expect(plain.headers.get("content-type")).toMatch(/^text\/plain/);
  });

  it("a reset link that cannot be used is titled 'Error:' and its heading", async () => {
    const client = new ApiClient(server.baseUrl);
    const used = await client.get("/reset-password?token=no-such-token", HTML);
    expect(used.text).toContain("<title>Error: This link cannot be used · Latchkey</title>");
    const refused = await client.get("/reset-password?token=no-such-token&error=too_many_requests", HTML);
    expect(refused.text).toContain("<title>Error: This link was not opened · Latchkey</title>");
  });

  it("an unknown invitation is titled 'Error: Invitation not found'", async () => {
    const page = await new ApiClient(server.baseUrl).get("/invitations/no-such-invitation", HTML);
    expect(page.status).toBe(404);
    expect(page.text).toContain("<title>Error: Invitation not found · Latchkey</title>");
  });
});

describe("one-time notices", () => {
  it("a notice set for one page is dropped, unshown, by another page that shows notices", async () => {
    const client = new ApiClient(server.baseUrl);
    await signUp(client, { name: "Nora Notice" });
    const saved = await client.request("POST", "/account/profile", { rawBody: new URLSearchParams({ intent: "update-profile", name: "Nora N." }).toString(), headers: FORM });
    expect(saved.status).toBe(302);
    expect(saved.headers.get("location")).toBe("/account/profile");
    // Not followed to its page: another page with a notice area, visited next, does not show it, and clears it.
    const elsewhere = await client.get("/account/sessions", HTML);
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.text).not.toContain('id="flash"');
    const later = await client.get("/account/profile", HTML);
    expect(later.text).not.toContain('id="flash"');

    // Followed, it is shown where it was meant to be.
    await client.request("POST", "/account/profile", { rawBody: new URLSearchParams({ intent: "update-profile", name: "Nora" }).toString(), headers: FORM });
    const there = await client.get("/account/profile", HTML);
    expect(there.text).toMatch(/id="flash"[^>]*>[^<]*saved/i);
  });
});
