// One serving process: the built app on node:http, /api/auth through the API dispatch, everything else through
// express + Remix. Run alone, or as one of WEB_CONCURRENCY cluster workers (server/primary.mjs).
import http from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { createApiDispatch } from "./api-dispatch.mjs";
import { createClientAddress, trustProxySetting } from "./client-address.mjs";
import { setCommonHeaders } from "./common-headers.mjs";
import { createExpressApp } from "./express-app.mjs";
import { createHealth } from "./health.mjs";
import { installObservability, serveMetrics } from "./observability/index.mjs";
import { createRequestObserver } from "./observability/requests.mjs";
import { createRouteLabels, OIDC_ROUTE } from "./observability/route-label.mjs";
import { migrationsFor } from "../scripts/lib/migrate.mjs";
import { sendRefusal } from "./refusal.mjs";

/** Bench only (scripts/bench.mjs): serve with a handful of routes, to show a request's cost does not grow with them. */
const HANDFUL = new Set(["root", "routes/api.auth.$", "routes/api.auth.ok", "routes/api.auth.get-session", "routes/api.auth.sign-in.email", "routes/api.auth.sign-out"]);

export async function serve({ root, port, host }) {
  let build;
  try {
    build = await import(pathToFileURL(path.join(root, "build", "index.js")).href);
  } catch (error) {
    // Configuration errors are thrown while the build's modules load: show the message, not a stack.
    console.error(error?.name === "ConfigurationError" ? `[latchkey] ${error.message}` : error);
    process.exit(1);
  }
  if (process.env.LATCHKEY_BENCH_HANDFUL_ROUTES === "1") {
    build = { ...build, routes: Object.fromEntries(Object.entries(build.routes).filter(([id]) => HANDFUL.has(id))) };
  }

  const trustProxy = trustProxySetting();
  const clientAddress = createClientAddress(trustProxy);
  const strictTransport = /^https:/i.test(process.env.BASE_URL ?? "");
  const app = createExpressApp({ build, root, clientAddress, trustProxy, strictTransport });
  // LATCHKEY_API_DISPATCH=remix sends the API through express + Remix too (the API suite runs both ways).
  const dispatch = process.env.LATCHKEY_API_DISPATCH === "remix" ? () => false : createApiDispatch({ build, clientAddress, strictTransport });
  // The request id, the line and the metric of every request (ADR 062); the route label from the route table.
  const { logger, metrics } = installObservability({ root });
  const observe = createRequestObserver({
    logger,
    recorder: metrics?.recorder ?? null,
    routeLabel: createRouteLabels(build, build.entry.module.apiDispatch?.routes),
    clientIp: (req) => clientAddress.loadContext(req).clientIp,
  });

  // The probes (ADR 064): ready once every migration shipped beside this build is applied.
  const healthHooks = build.entry.module.health;
  const health = createHealth({
    hooks: healthHooks,
    expectedMigrations: migrationsFor(healthHooks.databaseKind).map((migration) => migration.name),
    strictTransport,
    onFailure: healthHooks.countFailure,
  });

  const oidcProvider = build.entry.module.oidcProvider;
  const server = http.createServer((req, res) => {
    const note = observe(req, res);
    // A Host with user info ("a@b") makes a URL that no Fetch Request may carry: refused here, for pages and
    // API alike, rather than thrown where the request is built.
    if (hostHasUserInfo(req.headers.host) || hostHasUserInfo(req.headers["x-forwarded-host"])) {
      sendRefusal(build, req, res, 400, "Bad Request", { Connection: "close" });
      return;
    }
    // A request parsed from what a client sent after its connection was answered with `Connection: close`
    // (lingerOnClose keeps reading while the rest of a refused body arrives): nothing can be written back.
    if (req.socket.writableEnded) {
      req.socket.destroy();
      return;
    }
    // Probes first: never rate-limited, never through the page machinery.
    const probe = health.match(req);
    if (probe) {
      note.route = probe;
      health.handle(probe, req, res);
      return;
    }
    // The OpenID provider's paths (discovery, /api/auth/oauth2/…) go to it, a Koa application of its own (ADR 046),
    // counted against the rate limit of the client address every other request is counted by (ADR 006, 051).
    if (oidcProvider?.handles(pathOf(req.url))) {
      note.route = pathOf(req.url).startsWith("/api/") ? OIDC_ROUTE : pathOf(req.url);
      setCommonHeaders(res, strictTransport);
      oidcProvider.handle(req, res, clientAddress.loadContext(req).clientIp);
      return;
    }
    let dispatched;
    try {
      dispatched = dispatch(req, res);
    } catch (error) {
      // Whatever else the dispatch cannot build a request from: express + Remix answer it (or refuse it) instead
      // of the process going down with it.
      console.error("[latchkey] dispatch:", error);
      dispatched = false;
    }
    if (!dispatched) app(req, res);
  });
  server.keepAliveTimeout = 5_000;
  server.on("connection", lingerOnClose);
  await new Promise((resolve) => server.listen(port, host, resolve));
  const metricsServer = await serveMetrics();
  // Start-up work that needs the migrated database (AUTH_ADMIN_EMAILS, ADR 049).
  build.entry?.module?.afterStart?.();

  function shutdown() {
    // Answers already given may have promised a mail: it goes out before the exit (at most the 2 s below).
    server.close(() => Promise.resolve(build.entry?.module?.beforeStop?.()).finally(() => process.exit(0)));
    metricsServer?.close();
    server.closeIdleConnections?.();
    setTimeout(() => process.exit(0), 2_000).unref();
  }
  process.on("SIGTERM", shutdown);
  process.on("SIGINT", shutdown);
  return server;
}

/** A request target's path, without its query. */
function pathOf(target) {
  const url = String(target ?? "");
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}

/** Whether a Host (or X-Forwarded-Host) header carries user info, which no host may. */
function hostHasUserInfo(value) {
  return value !== undefined && String(value).includes("@");
}

/** The longest a closed connection keeps reading what its client is still sending. */
const LINGER_MS = 1_000;

/**
 * Lingering close, as nginx does it. node:http closes a `Connection: close` socket the moment the answer is
 * sent; when the client is still sending a body nobody read (a 413 for a body far over the cap), closing with
 * unread bytes makes the kernel answer with a reset, which can destroy the 413 in the client's buffers before
 * the client reads it. Instead the answer is followed by a FIN, what still arrives is read and dropped, and the
 * socket is destroyed once the client closes its side or after LINGER_MS.
 */
function lingerOnClose(socket) {
  socket.destroySoon = function lingeringClose() {
    if (this.destroyed) return;
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once("close", () => clearTimeout(timer));
  };
}
