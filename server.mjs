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
    getLoadContext: (req) => ({ clientIp: req.ip ?? req.socket.remoteAddress ?? "unknown" }),
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
