// The API dispatch (server/api-dispatch.mjs) answers exactly as Remix's own handler would, for what a resource
// route can do that the real routes do not (throw a Response, throw an error, return a plain object or
// nothing, lack an action) and for how paths, params and queries reach the route. Both run here side by side
// on one synthetic build; the API suite covers the real routes through both (ADR 023).
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { createRequestHandler } from "@remix-run/express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiDispatch } from "../../server/api-dispatch.mjs";
import { createClientAddress } from "../../server/client-address.mjs";
import { apiRoutesOf } from "~/http/api-routes.server";
import type { ApiDispatchHooks } from "~/http/server-contract";
import { BodyTooLargeError, readCappedText } from "~/http/body.server";
import { TextResponse } from "~/http/text-response.server";

type Args = { request: Request; params: Record<string, string | undefined>; context: Record<string, unknown> };
const seen: unknown[] = [];
/** Called when the slow route's loader has started (so a test aborts a request that is being served). */
let slowStarted = () => {};
const errorsHandled: string[] = [];

/** What the route saw, as the answer's body, so the two paths' views can be compared. */
const echo = async ({ request, params, context }: Args) =>
  Response.json(
    { method: request.method, url: request.url, params, context, body: request.body ? await request.text() : null, aborted: request.signal.aborted },
    { headers: { "Set-Cookie": "a=1; Path=/", "X-Extra": "yes" } },
  );

/** A GET whose answer for a known cookie can also be given from memory, as get-session's is (ADR 054). */
const rememberedText = (cookie: string | null | undefined) => JSON.stringify({ who: cookie ?? null });
const remembered = Object.assign(
  ({ request }: Args) => {
    seen.push("loader");
    return new TextResponse(rememberedText(request.headers.get("cookie")), {
      headers: [
        ["Content-Type", "application/json; charset=utf-8"],
        ["Cache-Control", "no-store"],
      ],
    });
  },
  {
    fromMemory: (pathname: string, search: string, cookie: string | undefined) => {
      seen.push(`memory ${pathname}${search}`);
      return cookie === "known=1" ? rememberedText(cookie) : null;
    },
  },
);

const routes = {
  "routes/api.auth.remembered": {
    id: "routes/api.auth.remembered",
    parentId: "root",
    path: "api/auth/remembered",
    module: { loader: remembered, action: echo },
  },
  root: { id: "root", path: "", module: { default: () => null } },
  "routes/api.auth.echo": { id: "routes/api.auth.echo", parentId: "root", path: "api/auth/echo", module: { loader: echo, action: echo } },
  "routes/api.auth.items.$id": { id: "routes/api.auth.items.$id", parentId: "root", path: "api/auth/items/:id", module: { loader: echo } },
  "routes/api.auth.$": { id: "routes/api.auth.$", parentId: "root", path: "api/auth/*", module: { loader: echo, action: echo } },
  "routes/api.auth.throws-response": {
    id: "routes/api.auth.throws-response",
    parentId: "root",
    path: "api/auth/throws-response",
    module: {
      loader: () => {
        throw new Response("nope", { status: 418, headers: { "Content-Type": "text/plain" } });
      },
    },
  },
  "routes/api.auth.throws-redirect": {
    id: "routes/api.auth.throws-redirect",
    parentId: "root",
    path: "api/auth/throws-redirect",
    module: {
      loader: () => {
        throw new Response(null, { status: 302, headers: { Location: "/elsewhere" } });
      },
    },
  },
  "routes/api.auth.throws-error": {
    id: "routes/api.auth.throws-error",
    parentId: "root",
    path: "api/auth/throws-error",
    module: {
      loader: () => {
        throw new Error("boom");
      },
    },
  },
  "routes/api.auth.returns-object": {
    id: "routes/api.auth.returns-object",
    parentId: "root",
    path: "api/auth/returns-object",
    module: { loader: () => ({ plain: true }), action: () => null },
  },
  "routes/api.auth.returns-nothing": {
    id: "routes/api.auth.returns-nothing",
    parentId: "root",
    path: "api/auth/returns-nothing",
    module: { loader: () => undefined },
  },
  "routes/api.auth.slow": {
    id: "routes/api.auth.slow",
    parentId: "root",
    path: "api/auth/slow",
    module: {
      loader: ({ request }: Args) =>
        new Promise((resolve) => {
          const timer = setTimeout(() => (seen.push("timed out"), resolve(new Response("late"))), 20_000);
          request.signal.addEventListener("abort", () => (clearTimeout(timer), seen.push("aborted"), resolve(new Response("gone"))));
          slowStarted();
        }),
    },
  },
  // The load context's readBody (the dispatch) and the body stream (Remix) read the same bytes, by one cap.
  "routes/api.auth.capped": {
    id: "routes/api.auth.capped",
    parentId: "root",
    path: "api/auth/capped",
    module: {
      action: async ({ request, context }: Args) => {
        try {
          return new Response(`read: ${await readCappedText(request, context, 8)}`);
        } catch (error) {
          if (error instanceof BodyTooLargeError) return new Response("too large", { status: 413 });
          throw error;
        }
      },
    },
  },
  "routes/api.auth.text-response": {
    id: "routes/api.auth.text-response",
    parentId: "root",
    path: "api/auth/text-response",
    module: { loader: () => new TextResponse('{"held":"as text"}', { status: 201, headers: { "Content-Type": "application/json" } }) },
  },
  "routes/api.auth.text": {
    id: "routes/api.auth.text",
    parentId: "root",
    path: "api/auth/text",
    module: { loader: () => new Response("plain text", { headers: { "Content-Type": "text/plain" } }) },
  },
};

/** The table scripts/api-routes.mjs would make from these routes' files. */
const apiDispatch: ApiDispatchHooks = {
  routes: apiRoutesOf({
    static: Object.fromEntries(
      Object.values(routes)
        .filter((route) => route.id.startsWith("routes/api.auth.") && !/[:*]/.test(route.path))
        .map((route) => [`/${route.path}`, route.id]),
    ),
    parameterised: [{ prefix: "/api/auth/items/", param: "id", id: "routes/api.auth.items.$id" }],
    splat: "routes/api.auth.$",
  }),
  earlyRefusal: () => null,
  earlyRefusalHoldMs: () => 0,
  responseText: TextResponse.textOf,
  jsonHeaders: [
    ["Content-Type", "application/json; charset=utf-8"],
    ["Cache-Control", "no-store"],
  ],
};

const build = {
  routes,
  entry: {
    module: {
      apiDispatch,
      default: () => new Response("document"),
      handleError: (error: unknown, { request }: { request: Request }) => {
        if (!request.signal.aborted) errorsHandled.push(`${new URL(request.url).pathname}: ${(error as Error)?.message ?? error}`);
      },
    },
  },
  future: { v3_singleFetch: true },
  assets: { routes: {}, entry: { module: "", imports: [] }, url: "", version: "1" },
  publicPath: "/build/",
  assetsBuildDirectory: "public/build",
  isSpaMode: false,
  mode: "production",
};

async function listen(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let direct: Awaited<ReturnType<typeof listen>>;
let remix: Awaited<ReturnType<typeof listen>>;

beforeAll(async () => {
  const clientAddress = createClientAddress(false);
  const app = express();
  app.disable("x-powered-by");
  app.all("*", createRequestHandler({ build: build as never, mode: "production", getLoadContext: (req) => clientAddress.loadContext(req) }));
  const dispatch = createApiDispatch({ build, clientAddress, strictTransport: false });
  direct = await listen((req, res) => {
    if (!dispatch(req, res)) {
      res.statusCode = 599;
      res.end("not dispatched");
    }
  });
  remix = await listen((req, res) => {
    // the headers the dispatch sets on every answer, so the two compare
    res.setHeader("Referrer-Policy", "same-origin");
    res.setHeader("X-Content-Type-Options", "nosniff");
    app(req, res);
  });
});

afterAll(() => {
  direct.server.close();
  remix.server.close();
});

/** Status, headers (without framing and date) and body, with the port taken out of URLs. */
async function answer(base: string, path: string, init: RequestInit = {}) {
  const response = await fetch(base + path, { redirect: "manual", ...init });
  const headers = [...response.headers].filter(([name]) => !["date", "transfer-encoding", "content-length", "connection", "keep-alive"].includes(name));
  const port = new URL(base).port;
  return { status: response.status, statusText: response.statusText, headers, body: (await response.text()).replaceAll(port, "PORT") };
}

async function both(path: string, init: RequestInit = {}) {
  errorsHandled.length = 0;
  const throughRemix = await answer(remix.base, path, init);
  const remixErrors = [...errorsHandled];
  errorsHandled.length = 0;
  const throughDispatch = await answer(direct.base, path, init);
  return { throughRemix, throughDispatch, remixErrors, dispatchErrors: [...errorsHandled] };
}

describe("the API dispatch answers as Remix's handler does", () => {
  const cases: Array<[string, string, RequestInit?]> = [
    ["a returned Response, its cookies and headers", "/api/auth/echo"],
    ["any case, trailing slashes", "/API/Auth/Echo//"],
    ["a query, re-serialised, index and _routes stripped as Remix strips them", "/api/auth/echo?b=~%20x&index&_routes=x&index=2&a=1"],
    ["a dynamic segment, decoded (an encoded slash included)", "/api/auth/items/a%2Fb%20c"],
    ["the splat", "/api/auth/no/such/thing"],
    ["the bare prefix", "/api/auth"],
    ["a thrown Response", "/api/auth/throws-response"],
    ["a thrown redirect", "/api/auth/throws-redirect"],
    ["a plain object", "/api/auth/returns-object"],
    ["a plain null from an action", "/api/auth/returns-object", { method: "POST", body: "x" }],
    ["a text body", "/api/auth/text"],
    ["HEAD: the loader's status and headers, no body", "/api/auth/echo", { method: "HEAD" }],
    ["OPTIONS runs the loader", "/api/auth/echo", { method: "OPTIONS" }],
    ["a POST body, streamed to the action", "/api/auth/echo", { method: "POST", body: "hello", headers: { "Content-Type": "text/plain" } }],
    ["DELETE runs the action", "/api/auth/echo", { method: "DELETE" }],
    ["a body read within its cap", "/api/auth/capped", { method: "POST", body: "12345678" }],
    ["a body over its cap", "/api/auth/capped", { method: "POST", body: "123456789" }],
    ["a response held as text", "/api/auth/text-response"],
  ];
  for (const [what, path, init] of cases) {
    it(what, async () => {
      const { throughRemix, throughDispatch } = await both(path, init);
      expect(throughDispatch).toEqual(throughRemix);
    });
  }

  it("a thrown error: Remix's last-resort 500, and handleError called the same way", async () => {
    const { throughRemix, throughDispatch, remixErrors, dispatchErrors } = await both("/api/auth/throws-error");
    expect(throughRemix.status).toBe(500);
    expect(throughDispatch).toEqual(throughRemix);
    expect(dispatchErrors).toEqual(remixErrors);
    expect(dispatchErrors).toEqual(["/api/auth/throws-error: boom"]);
  });

  it("a loader that returns nothing is an error, as in Remix", async () => {
    const { throughRemix, throughDispatch, remixErrors, dispatchErrors } = await both("/api/auth/returns-nothing");
    expect(throughRemix.status).toBe(500);
    expect(throughDispatch).toEqual(throughRemix);
    expect(dispatchErrors).toEqual(remixErrors);
  });

  it("leaves to Remix what it does not handle itself: a missing action, ?_data, .data, pages", async () => {
    for (const [path, init] of [
      ["/api/auth/items/1", { method: "POST" }],
      ["/api/auth/echo?_data=routes/api.auth.echo", {}],
      ["/api/auth/echo.data", {}],
      ["/", {}],
      ["/api/authx", {}],
    ] as const) {
      expect((await fetch(direct.base + path, init)).status, path).toBe(599);
    }
  });

  it("a GET the route can answer from memory is answered so, without its loader, exactly as through Remix", async () => {
    seen.length = 0;
    const { throughRemix, throughDispatch } = await both("/api/auth/Remembered/?x=1", { headers: { cookie: "known=1" } });
    expect(throughRemix.status).toBe(200);
    expect(throughDispatch).toEqual(throughRemix);
    expect(seen).toEqual(["loader", "memory /api/auth/Remembered/?x=1"]);
  });

  it("whatever memory cannot answer, or must not (HEAD, a body, other methods), reaches the loader or action", async () => {
    // What each path ran, Remix's first: the dispatch asks memory only for a bodiless GET.
    const cases: Array<[string, RequestInit, string[]]> = [
      ["nothing in memory", { headers: { cookie: "stranger=1" } }, ["loader", "memory /api/auth/remembered", "loader"]],
      ["HEAD", { method: "HEAD", headers: { cookie: "known=1" } }, ["loader", "loader"]],
      ["POST", { method: "POST", headers: { cookie: "known=1" } }, []],
    ];
    for (const [what, init, ran] of cases) {
      seen.length = 0;
      const { throughRemix, throughDispatch } = await both("/api/auth/remembered", init);
      expect(throughDispatch, what).toEqual(throughRemix);
      expect(seen, what).toEqual(ran);
    }
    // A GET that announces a body (fetch cannot send one): the loader answers, after the body is read.
    seen.length = 0;
    const status = await new Promise<number | undefined>((resolve, reject) => {
      const request = http.request(`${direct.base}/api/auth/remembered`, { method: "GET", headers: { cookie: "known=1", "content-length": "2" } }, (response) => {
        response.resume();
        resolve(response.statusCode);
      });
      request.on("error", reject);
      request.end("{}");
    });
    expect(status).toBe(200);
    expect(seen).toEqual(["loader"]);
  });

  it("a route's request is aborted when the client goes away, as through Remix's adapter", async () => {
    for (const base of [remix.base, direct.base]) {
      seen.length = 0;
      const client = new AbortController();
      // Aborted once the loader is running, not after a fixed pause a loaded machine may not reach it within.
      const started = new Promise<void>((resolve) => (slowStarted = resolve));
      const pending = fetch(`${base}/api/auth/slow`, { signal: client.signal }).catch(() => null);
      await started;
      client.abort();
      await pending;
      await expect.poll(() => seen, { timeout: 10_000 }).toEqual(["aborted"]);
    }
  });
});
