// A refused body must not poison a keep-alive connection (issue 6, item 3): two requests over one socket, the
// first one refused (413, 405, 403), and the second one must still be answered, or the server must say
// `Connection: close` and close the socket, so a pooling client knows to open a new one.
import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server?.stop();
});

interface Exchange {
  /** Status lines and headers of every response read before the socket closed or went quiet. */
  responses: Array<{ status: number; headers: string }>;
  closed: boolean;
}

/** Writes `payload` on one socket and reads until the server closes it or `expected` responses arrived. */
function exchange(payload: Buffer, expected: number): Promise<Exchange> {
  const { port } = new URL(server.baseUrl);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), "127.0.0.1");
    let received = "";
    const done = (closed: boolean) => {
      const responses = [...received.matchAll(/HTTP\/1\.1 (\d{3})[^\r]*\r\n([\s\S]*?)\r\n\r\n/g)].map((m) => ({ status: Number(m[1]), headers: m[2].toLowerCase() }));
      socket.destroy();
      resolve({ responses, closed });
    };
    socket.on("data", (chunk) => {
      received += chunk.toString("latin1");
      const count = (received.match(/HTTP\/1\.1 \d{3}/g) ?? []).length;
      if (count >= expected && /\r\n\r\n[\s\S]*$/.test(received)) setTimeout(() => done(false), 100);
    });
    socket.on("end", () => done(true));
    // A server that answers and closes while the client is still sending: a reset, or EPIPE on our write.
    socket.on("error", (error) => (["ECONNRESET", "EPIPE"].includes((error as NodeJS.ErrnoException).code ?? "") ? done(true) : reject(error)));
    socket.write(payload);
  });
}

const host = () => new URL(server.baseUrl).host;
const followUp = () => `GET /api/auth/ok HTTP/1.1\r\nHost: ${host()}\r\n\r\n`;

function request(method: string, path: string, body: string, extra = ""): string {
  return `${method} ${path} HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;
}

/** Either the follow-up request was answered 200, or the refusal said Connection: close and the socket closed. */
function expectUnpoisoned(result: Exchange, refusedWith: number) {
  expect(result.responses[0]?.status).toBe(refusedWith);
  if (result.responses.length >= 2) {
    expect(result.responses[1].status).toBe(200);
  } else {
    expect(result.responses[0].headers).toMatch(/connection: close/);
    expect(result.closed).toBe(true);
  }
}

describe("a refused request leaves its keep-alive connection usable", () => {
  it("413 for a body a little over the cap, then the next request on the same socket is answered", async () => {
    const big = JSON.stringify({ email: "a".repeat(100_000) });
    const result = await exchange(Buffer.from(request("POST", "/api/auth/sign-in/email", big) + followUp()), 2);
    expectUnpoisoned(result, 413);
    expect(result.responses).toHaveLength(2);
  });

  it("413 for a body far over the cap closes the connection instead of hanging it, and the 413 is never lost to a reset", async () => {
    // Closing while the client is still sending makes the kernel answer with a reset, which can destroy the
    // 413 before the client reads it (3 times in 60 here before the server lingered on close): try it often.
    const huge = Buffer.from(request("POST", "/api/auth/sign-in/email", "x".repeat(2 * 1024 * 1024)) + followUp());
    for (let i = 0; i < 20; i++) expectUnpoisoned(await exchange(huge, 2), 413);
  });

  it("413 for a chunked body over the cap, then the next request", async () => {
    const chunk = "y".repeat(50_000);
    const chunked = `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`
      + `${(50_000).toString(16)}\r\n${chunk}\r\n`.repeat(3) + "0\r\n\r\n";
    const result = await exchange(Buffer.from(chunked + followUp()), 2);
    expectUnpoisoned(result, 413);
  });

  it("a page form over the cap, then the next request", async () => {
    const form = `email=${"a".repeat(200_000)}`;
    const raw = `POST /forgot-password HTTP/1.1\r\nHost: ${host()}\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${form.length}\r\n\r\n${form}`;
    const result = await exchange(Buffer.from(raw + followUp()), 2);
    expectUnpoisoned(result, 413);
  });

  it("405 for a body sent to a GET route, then the next request", async () => {
    const body = JSON.stringify({ pad: "z".repeat(60_000) });
    const result = await exchange(Buffer.from(request("POST", "/api/auth/get-session", body) + followUp()), 2);
    expectUnpoisoned(result, 405);
  });

  it("a page form from another site is a 403 (not a 500), and the next request is answered", async () => {
    const body = `email=${"b".repeat(60_000)}`;
    const raw = `POST /forgot-password HTTP/1.1\r\nHost: ${host()}\r\nOrigin: https://evil.example\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const result = await exchange(Buffer.from(raw + followUp()), 2);
    expectUnpoisoned(result, 403);
  });
});

describe("bodies read from the socket", () => {
  it("a body that arrives in many small packets is read whole", async () => {
    const { port } = new URL(server.baseUrl);
    const body = JSON.stringify({ email: "nobody-at-all@example.com", password: "x".repeat(120) });
    const head = `POST /api/auth/sign-in/email HTTP/1.1\r\nHost: ${host()}\r\nOrigin: ${server.baseUrl}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n`;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), "127.0.0.1");
      socket.setNoDelay(true);
      let received = "";
      socket.on("data", (chunk) => (received += chunk.toString("utf8")));
      socket.on("end", () => resolve(received));
      socket.on("error", reject);
      socket.write(head);
      let offset = 0;
      const next = () => {
        if (offset >= body.length) return;
        socket.write(body.slice(offset, offset + 16));
        offset += 16;
        setTimeout(next, 3);
      };
      next();
    });
    // The whole body was parsed: an unknown address after the same scrypt work, not a JSON or validation error.
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer).toContain("INVALID_EMAIL_OR_PASSWORD");
  });

  it("a client that goes away halfway through its body costs nothing: the server answers the next one", async () => {
    const { port } = new URL(server.baseUrl);
    const declared = 10_000;
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(port), "127.0.0.1", () => {
        socket.write(request("POST", "/api/auth/sign-in/email", "x".repeat(declared)).slice(0, -declared / 2));
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
      socket.on("error", reject);
    });
    const response = await fetch(`${server.baseUrl}/api/auth/ok`);
    expect(response.status).toBe(200);
    expect(server.output()).not.toMatch(/unexpected error|Unexpected Server Error/);
  });
});
