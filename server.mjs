// Production server: Remix on express. A custom server (rather than remix-serve) so rate limits and session
// records see the client's address, and so shutdown is prompt. Run through `npm start` (scripts/start.mjs),
// which builds and migrates first.
import path from "node:path";
import { fileURLToPath } from "node:url";
import express from "express";
import { createRequestHandler } from "@remix-run/express";

const root = path.dirname(fileURLToPath(import.meta.url));
const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? "0.0.0.0";

let build;
try {
  build = await import(path.join(root, "build", "index.js"));
} catch (error) {
  // Configuration errors are thrown while the build's modules load: show the message, not a stack.
  console.error(error?.name === "ConfigurationError" ? `[latchkey] ${error.message}` : error);
  process.exit(1);
}

const app = express();
app.disable("x-powered-by");

/** What the Fetch API (and so Remix) can carry; TRACE, CONNECT and the rest would make it throw a 500. */
const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const API_PREFIX = "/api/auth/";

const strictTransport = /^https:/i.test(process.env.BASE_URL ?? "");

app.use((req, res, next) => {
  // Headers for every answer, pages, API and files alike: tokens in URLs never leak to other sites through the
  // Referer, nothing is sniffed into another type, and on https browsers stay on https.
  res.setHeader("Referrer-Policy", "same-origin");
  res.setHeader("X-Content-Type-Options", "nosniff");
  if (strictTransport) res.setHeader("Strict-Transport-Security", "max-age=63072000");
  // A response that goes out before its request body was read to the end (a 413, a refused origin, a POST to a
  // GET route…) closes the connection: the unread rest would otherwise be parsed as the next request on a
  // keep-alive socket, and that innocent request would hang and be reset.
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    if (!req.complete && !res.headersSent) res.setHeader("Connection", "close");
    return writeHead.apply(this, args);
  };
  if (!METHODS.has(req.method)) {
    res.status(405).set({ Allow: [...METHODS].join(", "), "Content-Type": "text/plain; charset=utf-8" }).end("Method not allowed");
    return;
  }
  // Pages: a form posted from another site (or from an opaque "null" origin) is refused here with a plain 403,
  // before Remix's own same-host check turns it into a 500. The app's origin rules then judge the rest.
  if (req.method !== "GET" && req.method !== "HEAD" && !req.path.startsWith(API_PREFIX) && req.headers.origin !== undefined) {
    if (!sameHost(req.headers.origin, req.headers["x-forwarded-host"] ?? req.headers.host)) {
      res.status(403).set({ "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }).end("This form was sent from another site, so it was refused.");
      return;
    }
  }
  next();
});

/** Whether an Origin header names the host the request was sent to (as Remix compares them). */
function sameHost(origin, hostHeader) {
  const host = String(hostHeader ?? "").split(",")[0].trim();
  try {
    return origin !== "null" && host !== "" && new URL(origin).host === host;
  } catch {
    return false;
  }
}
// TRUST_PROXY: "true" trusts every X-Forwarded-For entry (the left-most, client-chosen one wins); a number N
// trusts exactly N proxies, so the address the outermost of them saw is used.
const trustProxy = process.env.TRUST_PROXY ?? "false";
if (trustProxy === "true") app.set("trust proxy", true);
else if (/^[1-9][0-9]?$/.test(trustProxy)) app.set("trust proxy", Number(trustProxy));
app.use(
  "/build",
  express.static(path.join(root, "public", "build"), { immutable: true, maxAge: "1y" }),
);
app.use(express.static(path.join(root, "public"), { maxAge: "1h" }));
app.all(
  "*",
  createRequestHandler({
    build,
    mode: process.env.NODE_ENV === "development" ? "development" : "production",
    getLoadContext: (req) => ({ clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown", peerAddress: req.socket.remoteAddress ?? "" }),
  }),
);

const server = app.listen(port, host, () => {
  console.log(`[latchkey] listening on http://${host === "0.0.0.0" ? "localhost" : host}:${port}`);
});
server.keepAliveTimeout = 5_000;

function shutdown() {
  server.close(() => process.exit(0));
  server.closeIdleConnections?.();
  setTimeout(() => process.exit(0), 2_000).unref();
}
process.on("SIGTERM", shutdown);
process.on("SIGINT", shutdown);
