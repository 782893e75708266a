// Every request this service sends to an organization's IdP (discovery, token, userinfo, JWKS) goes through here,
// because the URLs come from whoever registered the connection (docs/decisions/070-sso-connections.md, "No
// request forgery"): a host on a loopback, private, link-local, unique-local or cloud-metadata address is refused
// before any connection unless its origin is in SSO_TRUSTED_IDP_ORIGINS. The check runs on the addresses the name
// resolves to, inside the connection's own look-up, so a name that resolves to a public address once and to a
// private one at the next look-up (DNS rebinding) is caught on every fetch. Redirects are never followed, and
// every request gives up after 10 s.
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { AuthError } from "~/auth/errors";
import { env } from "~/env.server";

export const IDP_TIMEOUT_MS = 10_000;
/** An IdP's discovery document, token answer or key set is a few KB; anything larger is not one. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

const BLOCKED = new net.BlockList();
for (const [prefix, bits] of [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, and the cloud metadata address 169.254.169.254
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3], // multicast and reserved, up to 255.255.255.255
] as const) {
  BLOCKED.addSubnet(prefix, bits, "ipv4");
}
for (const [prefix, bits] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7], // unique-local (AWS's metadata fd00:ec2::254 among them)
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
] as const) {
  BLOCKED.addSubnet(prefix, bits, "ipv6");
}
/** Names of metadata services that a cloud's resolver answers with an internal address. */
const METADATA_HOSTS = new Set(["metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"]);

/** Whether an IP address is one an IdP URL may not reach unless trusted. */
export function isBlockedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1], "ipv4");
  const family = net.isIP(address);
  if (family === 4) return BLOCKED.check(address, "ipv4");
  if (family === 6) return BLOCKED.check(address, "ipv6");
  return true;
}

export const isTrustedIdpOrigin = (url: URL) => env.SSO_TRUSTED_IDP_ORIGINS.includes(url.origin);

function refused(url: URL, why: string): AuthError {
  return new AuthError("discovery_private_host", { message: `${url.origin} ${why}; add it to SSO_TRUSTED_IDP_ORIGINS if it is yours` });
}

/** A URL's shape: http(s), no credentials. Throws discovery_invalid_url. */
export function idpUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AuthError("discovery_invalid_url", { message: `Invalid OIDC endpoint URL: ${value.slice(0, 200)}` });
  }
  if ((url.protocol !== "https:" && url.protocol !== "http:") || url.username || url.password) {
    throw new AuthError("discovery_invalid_url", { message: `Invalid OIDC endpoint URL: ${url.origin}` });
  }
  return url;
}

/** Refuses a URL whose host is a blocked address or a metadata name before any look-up (literal IPs skip look-ups). */
export function assertFetchable(url: URL): void {
  if (isTrustedIdpOrigin(url)) return;
  const host = url.hostname.replace(/^\[|\]$/g, "").toLowerCase();
  if (METADATA_HOSTS.has(host.replace(/\.$/, ""))) throw refused(url, "is a cloud metadata host");
  if (host === "localhost" || host.endsWith(".localhost")) throw refused(url, "is a loopback host");
  if (net.isIP(host) && isBlockedAddress(host)) throw refused(url, "is a private, loopback or link-local address");
}

/**
 * At registration, for endpoints not fetched then (`skipDiscovery`, or what discovery named): refused now when the
 * host is, or resolves to, an address no fetch may reach. A name that does not resolve yet is left to the fetch,
 * which checks again whatever it resolves to then.
 */
export async function assertFetchableEndpoint(value: string): Promise<void> {
  const url = idpUrl(value);
  assertFetchable(url);
  if (isTrustedIdpOrigin(url) || net.isIP(url.hostname.replace(/^\[|\]$/g, ""))) return;
  const addresses = await dns.promises.lookup(url.hostname, { all: true }).catch(() => []);
  if (addresses.some((entry) => isBlockedAddress(entry.address))) throw refused(url, "resolves to a private, loopback or link-local address");
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** The connection's own look-up: every address the name resolves to must be allowed. */
function checkingLookup(url: URL) {
  return (hostname: string, options: dns.LookupOptions, callback: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as dns.LookupAddress[];
      if (!isTrustedIdpOrigin(url) && list.some((entry) => isBlockedAddress(entry.address))) {
        return callback(refused(url, "resolves to a private, loopback or link-local address") as unknown as NodeJS.ErrnoException, []);
      }
      if (options.all) return callback(null, list);
      callback(null, list[0].address, list[0].family);
    });
  };
}

export interface IdpResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
}

/**
 * One request to an IdP. Throws AuthError: discovery_private_host (refused address), oidc_endpoint_redirect (3xx),
 * discovery_timeout, discovery_unexpected_error (network failure, oversized answer).
 */
export function idpRequest(
  target: string | URL,
  init: { method?: "GET" | "POST"; headers?: Record<string, string>; body?: string } = {},
): Promise<IdpResponse> {
  const url = typeof target === "string" ? idpUrl(target) : target;
  assertFetchable(url);
  const transport = url.protocol === "https:" ? https : http;
  return new Promise((resolve, reject) => {
    const request = transport.request(
      url,
      {
        method: init.method ?? "GET",
        headers: { Accept: "application/json", "User-Agent": "Latchkey", ...init.headers, ...(init.body ? { "Content-Length": String(Buffer.byteLength(init.body)) } : {}) },
        lookup: checkingLookup(url) as never,
        timeout: IDP_TIMEOUT_MS,
        // A new connection per request: an idle pooled socket would skip the look-up and its check.
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          response.resume();
          reject(new AuthError("oidc_endpoint_redirect", { message: `${url.origin}${url.pathname} answered with a redirect (${status}), which is not followed` }));
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on("data", (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            request.destroy();
            reject(new AuthError("discovery_unexpected_error", { message: `${url.origin} answered with more than 1 MB` }));
            return;
          }
          chunks.push(chunk);
        });
        response.on("end", () => resolve({ status, headers: response.headers, text: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", (error) => reject(new AuthError("discovery_unexpected_error", { message: `${url.origin}: ${error.message}` })));
      },
    );
    const deadline = setTimeout(() => request.destroy(new AuthError("discovery_timeout", { message: `${url.origin} did not answer within 10 s` })), IDP_TIMEOUT_MS);
    request.on("timeout", () => request.destroy(new AuthError("discovery_timeout", { message: `${url.origin} did not answer within 10 s` })));
    request.on("error", (error) => {
      clearTimeout(deadline);
      reject(error instanceof AuthError ? error : new AuthError("discovery_unexpected_error", { message: `${url.origin}: ${(error as Error).message}` }));
    });
    request.on("close", () => clearTimeout(deadline));
    request.end(init.body);
  });
}

/** GET or POST expecting a 2xx JSON object; anything else throws AuthError(`failure`). */
export async function idpJson(
  target: string | URL,
  init: Parameters<typeof idpRequest>[1] = {},
  failure: "discovery_invalid_json" | "discovery_unexpected_error" = "discovery_unexpected_error",
): Promise<Record<string, unknown>> {
  const response = await idpRequest(target, init);
  let parsed: unknown;
  try {
    parsed = JSON.parse(response.text);
  } catch {
    parsed = null;
  }
  if (response.status < 200 || response.status >= 300) {
    const error = parsed && typeof parsed === "object" ? (parsed as { error?: unknown }).error : undefined;
    throw new AuthError(failure, { message: `${new URL(String(target)).origin} answered ${response.status}`, reason: typeof error === "string" ? error : String(response.status) });
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new AuthError("discovery_invalid_json", { message: "The answer is not a JSON object" });
  return parsed as Record<string, unknown>;
}
