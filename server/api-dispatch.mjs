// Production dispatch for /api/auth: the request goes straight from node:http to the route module's loader or
// action, skipping express, the static-file middleware and Remix's request handler, and is answered exactly as
// Remix answers a resource route (see docs/decisions/023-api-dispatch.md; the API suite runs through both).
// Anything this path does not handle itself (a route without the export the method needs, `?_data`, `.data`,
// a URL that does not parse, a page route) returns false and goes through express + Remix unchanged. What it
// takes from the build and hands the routes is named in app/http/server-contract.ts (ADR 035).
import { createReadableStreamFromReadable } from "@remix-run/node";
import { setCommonHeaders } from "./common-headers.mjs";

export const API_PREFIX = "/api/auth";
/** What Remix's static handler runs an action for; GET, HEAD and OPTIONS run the loader. */
const MUTATIONS = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** The methods the common layer lets through; anything else goes to express for its 405. */
const DISPATCHED = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * A Fetch Request made as cheaply as the route allows. Its signal is a plain AbortController's, made only if the
 * route asks for it: undici's own "follow this signal" costs more than the rest of the request together, and
 * the route sees the same thing (a signal aborted when the client goes away before the answer is written). Its
 * body (POST and the like) is a web stream made from the socket only when the route reads it: building one on
 * Node 20 costs about as much as a whole light request, and a request refused before its body is read (a 429,
 * a wrong method, a refused origin) never needs it. Every way of reading the body goes through `body`, except
 * the one every API route uses, app/http/body.server.ts's readCappedText: it takes the bytes straight from the
 * socket through the load context's `readBody` (a web stream and a second Request cost a POST about a tenth of
 * its throughput).
 */
/** What a dispatched request's source becomes once `readCapped` has taken its body. */
const READ = Symbol("read");

class DispatchedRequest extends Request {
  #controller = null;
  #clientGone = false;
  #source = null;
  #withBody = null;
  constructor(href, init, source) {
    super(href, init);
    this.#source = source;
  }
  get signal() {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#clientGone) this.#controller.abort();
    }
    return this.#controller.signal;
  }
  /** The same request with its body attached, made once, the first time the body is wanted. */
  #bodied() {
    if (!this.#source) return null;
    this.#withBody ??= new Request(this.url, {
      method: this.method,
      headers: this.headers,
      body: this.#source === READ ? "" : createReadableStreamFromReadable(this.#source),
      duplex: "half",
    });
    if (this.#source === READ && !this.#withBody.bodyUsed) this.#withBody.body.cancel().catch(() => {}); // used up
    return this.#withBody;
  }
  get body() {
    return this.#source ? this.#bodied().body : super.body;
  }
  get bodyUsed() {
    return this.#source === READ || (this.#withBody?.bodyUsed ?? false);
  }
  /**
   * The body's bytes, at most `maxBytes` of them, read from the socket: `{ bytes }`, or `{ tooLarge: true }`
   * once more than `maxBytes` arrived (the rest, up to `discardBytes`, is read and dropped so the connection
   * stays usable; beyond that reading stops, and `send` closes the connection). The body is used up after.
   */
  async readCapped(maxBytes, discardBytes) {
    const source = this.#source;
    if (!source || source === READ || this.#withBody) throw new TypeError("Body is unusable: Body has already been read");
    this.#source = READ;
    const chunks = [];
    let size = 0;
    await new Promise((resolve, reject) => {
      const onData = (chunk) => {
        size += chunk.length;
        if (size > discardBytes) {
          source.pause();
          finish();
        } else if (size <= maxBytes) chunks.push(chunk);
      };
      const onError = (error) => finish(error);
      const onClose = () => finish(source.complete ? undefined : new Error("the client went away before its body arrived"));
      const finish = (error) => {
        source.off("data", onData).off("end", finish).off("error", onError).off("close", onClose);
        if (error) reject(error);
        else resolve();
      };
      source.on("data", onData).once("end", finish).once("error", onError).once("close", onClose);
      if (source.readableEnded) finish();
    });
    if (size > maxBytes) return { tooLarge: true };
    return { bytes: chunks.length === 1 ? chunks[0] : Buffer.concat(chunks) };
  }
  text() {
    return this.#source ? this.#bodied().text() : super.text();
  }
  json() {
    return this.#source ? this.#bodied().json() : super.json();
  }
  arrayBuffer() {
    return this.#source ? this.#bodied().arrayBuffer() : super.arrayBuffer();
  }
  blob() {
    return this.#source ? this.#bodied().blob() : super.blob();
  }
  formData() {
    return this.#source ? this.#bodied().formData() : super.formData();
  }
  bytes() {
    return this.#source ? this.#bodied().bytes() : super.bytes();
  }
  clone() {
    return this.#source ? this.#bodied().clone() : super.clone();
  }
  static clientGone(request) {
    request.#clientGone = true;
    request.#controller?.abort();
  }
}

/** @remix-run/server-runtime's isResponse (duck-typed, so a Response from another realm counts too). */
function isResponse(value) {
  return (
    value != null &&
    typeof value.status === "number" &&
    typeof value.statusText === "string" &&
    typeof value.headers === "object" &&
    // `in`, not `typeof value.body`: reading `body` would make the stream a TextResponse exists to avoid
    "body" in value
  );
}

/** @remix-run/router's isRedirectResponse. */
function isRedirect(response) {
  return response.status >= 300 && response.status <= 399 && response.headers.get("Location") != null;
}

/** A query that may name a parameter Remix strips before the loader sees it (`index`, `_data`, `_routes`). */
const REMIX_QUERY_NAMES = /index|_data|_routes|%/i;

function isApiPath(path) {
  if (path.length < API_PREFIX.length || path.slice(0, API_PREFIX.length).toLowerCase() !== API_PREFIX) return false;
  const next = path[API_PREFIX.length];
  return next === undefined || next === "/" || next === "?";
}

/**
 * @param {{
 *   build: any,
 *   clientAddress: ReturnType<typeof import("./client-address.mjs").createClientAddress>,
 *   strictTransport: boolean,
 * }} options
 * @returns {(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse) => boolean}
 *   true when the request is being answered here, false when it is the caller's to answer
 */
export function createApiDispatch({ build, clientAddress, strictTransport }) {
  /** @type {import("../app/http/server-contract").ApiDispatchHooks} */
  const { routes, earlyRefusal, earlyRefusalHoldMs, responseText, jsonHeaders } = build.entry.module.apiDispatch;
  /** As `send` writes a JSON answer's headers: the names a Fetch Headers gives, in its order. */
  const memoryAnswerHeaders = [...new Headers(jsonHeaders)];
  // A route file added since app/http/api-routes.generated.ts was made (a build by `remix build` alone) would
  // be answered by the splat here and by its own module through Remix: refuse to start instead.
  const missing = Object.keys(build.routes).filter((id) => id.startsWith("routes/api.auth.") && !routes.ids.has(id));
  if (missing.length > 0) {
    throw new Error(`the API route table lacks ${missing.join(", ")}: build with \`npm run build\`, which makes it (ADR 035)`);
  }
  const singleFetch = build.future?.v3_singleFetch === true;
  const handleError =
    build.entry.module.handleError ??
    ((error, { request }) => {
      if (!request.signal.aborted) console.error(error);
    });

  return function dispatch(req, res) {
    if (!isApiPath(req.url) || !DISPATCHED.has(req.method)) return false;
    let url;
    try {
      url = new URL(clientAddress.requestHref(req));
    } catch {
      return false; // express's answer to a Host that makes no URL
    }
    const { pathname } = url;
    const hasQuery = req.url.includes("?");
    if (!isApiPath(pathname) || (singleFetch && pathname.endsWith(".data")) || (hasQuery && url.searchParams.has("_data"))) return false;
    const match = routes.match(pathname);
    const route = match && build.routes[match.id]; // absent only from the bench's handful of routes
    if (!route || route.module.default != null || route.module.ErrorBoundary != null) return false;
    const kind = MUTATIONS.has(req.method) ? "action" : "loader";
    const handler = route.module[kind];
    if (typeof handler !== "function") return false; // Remix's own 405/400

    // What the loader sees: Remix strips `index` (keeping non-empty values, last) and `_routes` (single fetch)
    // or `_data` from the query, which also re-serialises it.
    // Only when the query may hold one of them: touching `searchParams` re-serialises the whole URL, some 10 µs
    // a request, which took GET /get-session?disableCookieCache=true off the fast path (issue 28, ADR 045). A
    // percent sign may spell a name in escapes ("%69ndex"), so it takes the careful path too.
    if (hasQuery && REMIX_QUERY_NAMES.test(url.search)) {
      const keep = url.searchParams.getAll("index").filter(Boolean);
      url.searchParams.delete("index");
      for (const value of keep) url.searchParams.append("index", value);
      url.searchParams.delete(singleFetch ? "_routes" : "_data");
    }
    const context = clientAddress.loadContext(req);
    // A mailed link's route answers its own refusals, with a page for a browser (its `landingPage`).
    const refusal = handler.refusesWithPages ? null : earlyRefusal(context.clientIp, pathname, req.headers.cookie);
    if (refusal) {
      setCommonHeaders(res, strictTransport);
      const answer = () => send(req, res, refusal, responseText).catch((error) => res.destroy(error));
      // A busy hasher's refusal waits on a timer first (ADR 061), so a flood's connections come back slowly.
      const hold = earlyRefusalHoldMs(refusal);
      afterBody(req, hold > 0 ? () => setTimeout(answer, hold) : answer);
      return true;
    }
    // A GET the route can answer from memory (the signed-in read, ADR 054) skips the Request, the loader's
    // promise and the Response: the same status, headers and text, written at once. Never with a body to drain.
    if (req.method === "GET" && handler.fromMemory && req.headers["content-length"] === undefined && req.headers["transfer-encoding"] === undefined) {
      const text = handler.fromMemory(pathname, url.search, req.headers.cookie, context.requestNote);
      if (text !== null) {
        setCommonHeaders(res, strictTransport);
        for (const [name, value] of memoryAnswerHeaders) res.setHeader(name, value);
        res.end(text);
        return true;
      }
    }
    const hasBody = req.method !== "GET" && req.method !== "HEAD";
    const request = new DispatchedRequest(url.href, { method: req.method, headers: requestHeaders(req.headers) }, hasBody ? req : null);
    if (hasBody) context.readBody = (maxBytes, discardBytes) => request.readCapped(maxBytes, discardBytes);
    res.on("close", () => {
      if (!res.writableFinished) DispatchedRequest.clientGone(request);
    });

    setCommonHeaders(res, strictTransport);
    run(handler, { request, params: match.params, context }, kind, route.id)
      .then((response) => send(req, res, response, responseText))
      .catch((error) => res.destroy(error)); // a body stream that failed midway, as the express path does
    return true;
  };

  async function run(handler, args, kind, routeId) {
    try {
      const result = await handler(args);
      if (result === undefined) {
        throw new Error(
          `You defined ${kind === "loader" ? "a loader" : "an action"} for route "${routeId}" but didn't return ` +
            `anything from your \`${kind}\` function. Please return a value or \`null\`.`,
        );
      }
      if (isResponse(result)) return result;
      if (!singleFetch) return json(result);
      console.warn(resourceRouteJsonWarning(kind, routeId));
      return json(result);
    } catch (error) {
      // A thrown redirect is answered as it is; any other thrown Response is marked as caught.
      if (isResponse(error)) return isRedirect(error) ? error : withHeader(error, "X-Remix-Catch", "yes");
      handleError(error, { request: args.request, params: args.params, context: args.context });
      // Remix's last-resort answer in production.
      return new Response("Unexpected Server Error", { status: 500, headers: { "Content-Type": "text/plain" } });
    }
  }
}

/** What a refused request's body may be to be read and dropped (app/http/body.server.ts's discard limit). */
const DISCARD_LIMIT_BYTES = 1024 * 1024;

/**
 * Calls `then` once the request's body has arrived and been dropped, so an answer given before any route ran
 * keeps the keep-alive connection usable; a body larger than the discard limit is not waited for (the answer
 * then closes the connection, see `send`).
 */
function afterBody(req, then) {
  if (req.complete || Number(req.headers["content-length"] ?? 0) > DISCARD_LIMIT_BYTES) return then();
  let size = 0;
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    req.off("data", count);
    then();
  };
  const count = (chunk) => {
    size += chunk.length;
    if (size > DISCARD_LIMIT_BYTES) {
      req.pause();
      finish();
    }
  };
  req.on("data", count);
  req.once("end", finish);
  req.once("error", finish);
}

/** @remix-run/express's createRemixHeaders: empty values left out, repeated ones appended. */
function requestHeaders(nodeHeaders) {
  const pairs = [];
  for (const name in nodeHeaders) {
    const value = nodeHeaders[name];
    if (!value) continue;
    if (Array.isArray(value)) for (const item of value) pairs.push([name, item]);
    else pairs.push([name, value]);
  }
  return pairs;
}

function json(data) {
  return new Response(JSON.stringify(data), { headers: { "Content-Type": "application/json; charset=utf-8" } });
}

function withHeader(response, name, value) {
  const headers = new Headers(response.headers);
  headers.set(name, value);
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
    duplex: response.body ? "half" : undefined,
  });
}

function resourceRouteJsonWarning(type, routeId) {
  return (
    "⚠️ REMIX FUTURE CHANGE: Externally-accessed resource routes will no longer be able to return raw JavaScript " +
    "objects or `null` in React Router v7 when Single Fetch becomes the default. You can prepare for this change " +
    `at your convenience by wrapping the data returned from your \`${type}\` function in the \`${routeId}\` route ` +
    "with `json()`.  For instructions on making this change, see https://remix.run/docs/en/v2.13.1/guides/single-fetch#resource-routes"
  );
}

/** express's `res.append` (which, for Content-Type, adds the charset express's `mime` knows). */
function appendHeader(res, name, value) {
  if (name === "content-type") {
    if (!/;\s*charset\s*=/.test(value) && /^text\/|^application\/(javascript|json)/.test(value.split(";")[0])) value += "; charset=utf-8";
    res.setHeader(name, value);
    return;
  }
  const previous = res.getHeader(name);
  if (previous === undefined || previous === "") res.setHeader(name, value);
  else res.setHeader(name, Array.isArray(previous) ? [...previous, value] : [String(previous), value]);
}

/**
 * Remix's answer written as @remix-run/express writes it, the body in one piece with its length (API answers
 * are small JSON documents); HEAD gets the status and headers only, as Remix's handler strips the body.
 */
async function send(req, res, response, responseText) {
  res.statusMessage = response.statusText;
  res.statusCode = response.status;
  for (const [name, value] of response.headers) appendHeader(res, name, value);
  const text = responseText(response);
  const body =
    req.method === "HEAD" ? undefined
    : text !== undefined ? text
    : response.body ? await readBody(response.body)
    : undefined;
  // The body was not read to the end (a 413, a refused origin, a POST to a GET route…): close the connection,
  // as the express path does, or the unread rest would be parsed as the next request.
  if (!req.complete) res.setHeader("Connection", "close");
  res.end(body);
}

/** The whole body (a reader is much cheaper than undici's arrayBuffer() for the one-chunk bodies API answers have). */
async function readBody(stream) {
  const reader = stream.getReader();
  const chunks = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  if (chunks.length === 1) return Buffer.from(chunks[0].buffer, chunks[0].byteOffset, chunks[0].byteLength);
  return Buffer.concat(chunks);
}
