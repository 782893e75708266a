// The one request function every client method goes through: JSON in and out, credentials included, the
// specification's client-side error handling (spec §8: a network failure becomes an error response; an HTTP
// failure carries status, statusText and the body's code and message), linear retries for idempotent calls, and
// the navigation a `{url, redirect: true}` answer asks for (spec §2).
import { DEFAULT_RETRY_INTERVAL_MS } from "~/client/constants";
import type { ClientError, ClientResult } from "~/client/types";

export interface RetryOptions {
  type?: "linear";
  /** How many times to try again after the first attempt. */
  attempts: number;
  /** Milliseconds between attempts (default 1000). */
  interval?: number;
}

export interface FetchOptions {
  /** A fetch to use instead of the global one (a test's cookie jar, a proxy's fetch). */
  customFetchImpl?: typeof fetch;
  headers?: Record<string, string>;
  /** Retries for network failures and 5xx answers of idempotent calls: a count, or linear options. */
  retry?: number | RetryOptions;
  /**
   * Called after each successful call, with its path relative to the base (e.g. "/sign-in/email"). As in Better
   * Auth's client (better-fetch), the call waits for the hook, and a hook that throws (or rejects) rejects the call.
   */
  onSuccess?: (context: { path: string; data: unknown }) => void | Promise<void>;
  /** Called once a call has failed (after its retries); awaited, and a throw rejects the call, as `onSuccess`. */
  onError?: (context: { path: string; error: ClientError }) => void | Promise<void>;
  /** Where a `{url, redirect: true}` answer goes; by default the browser navigates there. */
  onRedirect?: (url: string) => void;
}

export interface CallOptions {
  method: "GET" | "POST";
  body?: unknown;
  query?: Record<string, unknown>;
  /** Safe to repeat: GET always is; a POST only when the call says so. Only these are retried. */
  idempotent?: boolean;
  retry?: number | RetryOptions;
}

export type Requester = <T>(path: string, options: CallOptions) => Promise<ClientResult<T>>;

/** "unknown error" → "UNKNOWN_ERROR": how server-side errors build their codes (spec §8). */
export const codeFromMessage = (message: string) => message.trim().toUpperCase().replace(/[^A-Z0-9]+/g, "_").replace(/^_|_$/g, "");

const networkError = (cause: unknown): ClientError => ({
  status: 0,
  statusText: "",
  code: "NETWORK_ERROR",
  message: (cause as Error)?.message || "Network error",
  source: "network",
});

function httpError(response: Response, body: unknown): ClientError {
  const fields = (body && typeof body === "object" ? body : {}) as { code?: unknown; message?: unknown };
  const message = typeof fields.message === "string" ? fields.message : response.statusText || "unknown error";
  return {
    status: response.status,
    statusText: response.statusText,
    code: typeof fields.code === "string" ? fields.code : codeFromMessage(message),
    message,
    source: "server",
  };
}

function retryPlan(retry: CallOptions["retry"]): { attempts: number; interval: number } {
  if (retry === undefined) return { attempts: 0, interval: DEFAULT_RETRY_INTERVAL_MS };
  if (typeof retry === "number") return { attempts: retry, interval: DEFAULT_RETRY_INTERVAL_MS };
  return { attempts: retry.attempts, interval: retry.interval ?? DEFAULT_RETRY_INTERVAL_MS };
}

const retryable = (error: ClientError) => error.source === "network" || error.status >= 500;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function defaultRedirect(url: string) {
  if (typeof window !== "undefined") window.location.href = url;
}

function isRedirect(data: unknown): data is { url: string; redirect: true } {
  const answer = data as { url?: unknown; redirect?: unknown } | null;
  return typeof answer?.url === "string" && answer.redirect === true;
}

export function createRequester(baseURL: string, options: FetchOptions = {}): Requester {
  const fetchImpl = options.customFetchImpl ?? ((input, init) => fetch(input, init));

  async function attempt<T>(path: string, call: CallOptions): Promise<ClientResult<T>> {
    let url: string;
    let body: string | undefined;
    try {
      const query = new URLSearchParams();
      for (const [name, value] of Object.entries(call.query ?? {})) if (value !== undefined && value !== null) query.set(name, String(value));
      url = `${baseURL}${path}${query.toString() ? `?${query}` : ""}`;
      body = call.method === "POST" && call.body !== undefined ? JSON.stringify(call.body) : undefined;
    } catch (cause) {
      // A body that cannot be sent (circular, or holding a BigInt): an answer, not a throw.
      return { data: null, error: { status: 0, statusText: "", code: "INVALID_ARGUMENTS", message: (cause as Error)?.message || "invalid arguments", source: "browser" } };
    }
    let response: Response;
    try {
      response = await fetchImpl(url, {
        method: call.method,
        credentials: "include",
        headers: { ...(body !== undefined ? { "Content-Type": "application/json" } : {}), ...options.headers },
        body,
      });
    } catch (cause) {
      return { data: null, error: networkError(cause) };
    }
    let answer: unknown = null;
    try {
      const text = await response.text();
      answer = text ? JSON.parse(text) : null;
    } catch {
      // an empty, cut-off or non-JSON body: the status decides
    }
    if (!response.ok) return { data: null, error: httpError(response, answer) };
    return { data: answer as T, error: null };
  }

  return async function request<T>(path: string, call: CallOptions): Promise<ClientResult<T>> {
    const idempotent = call.idempotent ?? call.method === "GET";
    const plan = retryPlan(call.retry ?? options.retry);
    let result = await attempt<T>(path, call);
    for (let retry = 1; idempotent && result.error && retryable(result.error) && retry <= plan.attempts; retry++) {
      await sleep(plan.interval);
      result = await attempt<T>(path, call);
    }
    if (result.error) {
      await options.onError?.({ path, error: result.error });
      return result;
    }
    await options.onSuccess?.({ path, data: result.data });
    if (isRedirect(result.data)) (options.onRedirect ?? defaultRedirect)(result.data.url);
    return result;
  };
}

/**
 * The base every path is appended to. A base URL must parse (spec §5); one with a path of its own is used as
 * it is, otherwise the base path (default /api/auth) is added. Without a base URL, the page's own origin.
 */
export function resolveBaseURL(baseURL: string | undefined, basePath: string | undefined, defaultPath: string): string {
  const path = (basePath ?? defaultPath).replace(/\/+$/, "");
  if (baseURL === undefined || baseURL === "") {
    const origin = typeof window !== "undefined" ? window.location.origin : "";
    return `${origin}${path}`;
  }
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    throw new Error(`Invalid base URL: ${baseURL}. Please provide a valid base URL.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`Invalid base URL: ${baseURL}. Please provide a valid base URL.`);
  const own = url.pathname.replace(/\/+$/, "");
  if (own && basePath === undefined) return `${url.origin}${own}`;
  return `${url.origin}${path}`;
}
