// The shapes every call resolves to, and the type-level bridge from the server's routes to the client's methods.
// Route modules are only ever imported with `import type` (erased from the bundle), so the browser gets no
// server code, while the argument and result types stay the server's own: a server change that breaks a call
// fails `npm run typecheck`.
import type { EndpointBody, EndpointQuery, EndpointResult } from "~/http/endpoint.server";

/** What an HTTP or network failure looks like (spec §8): the status and the body's `code` and `message`. */
export interface ClientError {
  /** The HTTP status; 0 for a network failure. */
  status: number;
  statusText: string;
  code: string;
  message: string;
  /** "server": the API answered with an error; "network": no answer; "browser": the browser refused (a passkey ceremony). */
  source: "server" | "network" | "browser";
}

/** Every call resolves to this and never throws for an HTTP or network failure. */
export type ClientResult<T> = { data: T; error: null } | { data: null; error: ClientError };

/** A value as it arrives over JSON: dates become ISO strings, functions and undefined fields disappear. */
export type Wire<T> = T extends Date
  ? string
  : T extends string | number | boolean | null
    ? T
    : T extends undefined | ((...args: never[]) => unknown)
      ? never
      : T extends readonly (infer Item)[]
        ? Wire<Item>[]
        : T extends object
          ? { -readonly [K in keyof T as T[K] extends (...args: never[]) => unknown ? never : K]: Wire<T[K]> }
          : T;

/** A route module's action/loader (from `import type * as Route from "~/routes/api.auth.…"`). */
type RouteModule = { action: unknown };
/** The JSON body a route accepts, as the caller writes it. */
export type BodyOf<Route extends RouteModule> = EndpointBody<Route["action"]>;
/** The query a route accepts, as the caller writes it. */
export type QueryOf<Route extends RouteModule> = EndpointQuery<Route["action"]>;
/** What a route answers, as it arrives. */
export type DataOf<Route extends RouteModule> = Wire<EndpointResult<Route["action"]>>;
