// Pages and static files: Remix on express, as before the API dispatch (and, with LATCHKEY_API_DISPATCH=remix,
// the API too).
import path from "node:path";
import express from "express";
import { createRequestHandler } from "@remix-run/express";
import { setCommonHeaders } from "./common-headers.mjs";
import { sendRefusal } from "./refusal.mjs";
import { SERVED_STATIC } from "./observability/requests.mjs";

/** What the Fetch API (and so Remix) can carry; TRACE, CONNECT and the rest would make it throw a 500. */
export const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const API_PREFIX = "/api/auth/";

export function createExpressApp({ build, root, clientAddress, trustProxy, strictTransport }) {
  const app = express();
  app.disable("x-powered-by");
  // req.hostname and req.protocol (and so the URL Remix sees) follow the same setting as the client address.
  if (trustProxy !== false) app.set("trust proxy", trustProxy);

  app.use((req, res, next) => {
    setCommonHeaders(res, strictTransport);
    // A response that goes out before its request body was read to the end (a 413, a refused origin, a POST to
    // a GET route…) closes the connection: the unread rest would otherwise be parsed as the next request on a
    // keep-alive socket, and that innocent request would hang and be reset.
    const writeHead = res.writeHead;
    res.writeHead = function (...args) {
      if (!req.complete && !res.headersSent) res.setHeader("Connection", "close");
      return writeHead.apply(this, args);
    };
    if (!METHODS.has(req.method)) {
      sendRefusal(build, req, res, 405, "Method not allowed", { Allow: [...METHODS].join(", ") });
      return;
    }
    // Pages: a form posted from another site (or from an opaque "null" origin) is refused here with a plain 403,
    // before Remix's own same-host check turns it into a 500. The app's origin rules then judge the rest.
    if (req.method !== "GET" && req.method !== "HEAD" && !req.path.startsWith(API_PREFIX) && req.headers.origin !== undefined) {
      if (!sameHost(req.headers.origin, req.headers["x-forwarded-host"] ?? req.headers.host)) {
        sendRefusal(build, req, res, 403, "This form was sent from another site, so it was refused.");
        return;
      }
    }
    next();
  });
  // Every file served is one route value in metrics and log lines (ADR 062).
  const setHeaders = (res) => (res[SERVED_STATIC] = true);
  app.use("/build", express.static(path.join(root, "public", "build"), { immutable: true, maxAge: "1y", setHeaders }));
  app.use(express.static(path.join(root, "public"), { maxAge: "1h", setHeaders }));
  app.all(
    "*",
    createRequestHandler({
      build,
      mode: process.env.NODE_ENV === "development" ? "development" : "production",
      getLoadContext: (req) => clientAddress.loadContext(req),
    }),
  );
  // An address the static files cannot even decode (GET /%) fails in express.static with a 400, which express
  // would answer with a bare "Bad Request": a page in words instead, as for the server's other refusals.
  app.use((error, req, res, next) => {
    const status = Number(error?.status ?? error?.statusCode);
    if (res.headersSent || !(status >= 400 && status < 500)) return next(error);
    sendRefusal(build, req, res, status, "Bad request");
  });
  return app;
}

/** Whether an Origin header names the host the request was sent to (as Remix compares them). */
function sameHost(origin, hostHeader) {
  const host = String(hostHeader ?? "").split(",")[0].trim();
  try {
    return origin !== "null" && host !== "" && new URL(origin).host === host;
  } catch {
    return false;
  }
}
