// Which path the API takes (ADR 023): the direct dispatch sends a body with its length, express + Remix stream
// it chunked. This pins that the api-remix-dispatch project really runs the API files through Remix's handler,
// and api-sqlite/api-postgres through the dispatch; everything else must be the same either way.
import http from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import { sharedServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  server = await sharedServer();
});
afterAll(async () => {
  await server?.stop();
});

function rawHeaders(path: string): Promise<http.IncomingHttpHeaders> {
  return new Promise((resolve, reject) => {
    http.get(`${server.baseUrl}${path}`, (response) => resolve(response.resume().headers)).on("error", reject);
  });
}

it(`serves the API through ${process.env.LATCHKEY_API_DISPATCH === "remix" ? "express + Remix" : "the direct dispatch"}`, async () => {
  const headers = await rawHeaders("/api/auth/ok");
  if (process.env.LATCHKEY_API_DISPATCH === "remix") {
    expect(headers["transfer-encoding"]).toBe("chunked");
  } else {
    expect(headers["content-length"]).toBe(String('{"ok":true}'.length));
  }
  expect(headers["referrer-policy"]).toBe("same-origin");
});
