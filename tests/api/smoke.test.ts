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

describe("smoke", () => {
  it("answers /ok and signs up", async () => {
    const client = new ApiClient(server.baseUrl);
    expect((await client.get("/api/auth/ok")).body).toEqual({ ok: true });
    const { user } = await signUp(client);
    const session = await client.get("/api/auth/get-session");
    expect(session.body.user.id).toBe(user.id);
  });
});
