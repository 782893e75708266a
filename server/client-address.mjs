// Who sent a request, and the URL it was sent to, computed as express computes `req.ip`, `req.hostname` and
// `req.protocol` and as @remix-run/express builds the Fetch Request's URL, so the API dispatch (which skips
// express) and the express path see the same client and the same URL.
//
// TRUST_PROXY: "true" trusts every X-Forwarded-For entry (the left-most, client-chosen one wins); a number N
// trusts exactly N proxies, so the address the outermost of them saw is used; anything else trusts none.
import { createRequire } from "node:module";
import { REQUEST_NOTE } from "./observability/requests.mjs";

// express's own X-Forwarded-For parser, resolved from express so it is the very copy express uses.
const requireFromExpress = createRequire(createRequire(import.meta.url).resolve("express"));
const proxyaddr = requireFromExpress("proxy-addr");

/** The `trust proxy` setting for express, or false. */
export function trustProxySetting(value = process.env.TRUST_PROXY ?? "false") {
  if (value === "true") return true;
  if (/^[1-9][0-9]?$/.test(value)) return Number(value);
  return false;
}

/** express's compileTrust for the settings above. */
function compileTrust(setting) {
  if (setting === true) return () => true;
  if (typeof setting === "number") return (_address, hop) => hop < setting;
  return () => false;
}

export function createClientAddress(setting = trustProxySetting()) {
  const trust = compileTrust(setting);
  const trustsFirstHop = setting !== false;

  /** `req.ip` as express computes it. */
  function clientIp(req) {
    return proxyaddr(req, trust);
  }

  return {
    trustsFirstHop,
    /**
     * The `context` every loader and action receives (the same through express and through the dispatch), with
     * the request's note (server/observability/requests.mjs): its id for lines written about it, and where the
     * app says who is signed in.
     */
    loadContext(req) {
      const ip = clientIp(req) ?? req.socket.remoteAddress ?? "unknown";
      const note = req[REQUEST_NOTE];
      if (note) note.ip = ip;
      return { clientIp: ip, peerAddress: req.socket.remoteAddress ?? "", requestNote: note };
    },
    /** `${req.protocol}://${req.hostname}[:port]${req.originalUrl}`, as @remix-run/express's createRemixRequest. */
    requestHref(req) {
      const headers = req.headers;
      const forwardedHost = headers["x-forwarded-host"];
      let protocol = req.socket.encrypted ? "https" : "http";
      if (trustsFirstHop) {
        const header = headers["x-forwarded-proto"] || protocol;
        const comma = header.indexOf(",");
        protocol = comma !== -1 ? header.substring(0, comma).trim() : header.trim();
      }
      let host = forwardedHost;
      if (!host || !trustsFirstHop) host = headers.host;
      else if (host.indexOf(",") !== -1) host = host.substring(0, host.indexOf(",")).trimEnd();
      let hostname;
      if (host) {
        const offset = host[0] === "[" ? host.indexOf("]") + 1 : 0;
        const colon = host.indexOf(":", offset);
        hostname = colon !== -1 ? host.substring(0, colon) : host;
      }
      const forwardedPort = Number.parseInt(forwardedHost?.split(":")[1], 10);
      const hostPort = Number.parseInt(headers.host?.split(":")[1], 10);
      const port = Number.isSafeInteger(forwardedPort) ? forwardedPort : Number.isSafeInteger(hostPort) ? hostPort : "";
      return `${protocol}://${hostname}${port ? `:${port}` : ""}${req.url}`;
    },
  };
}
