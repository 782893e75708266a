// What the production server (server/*.mjs, plain JavaScript outside the build) and the app hand each other,
// named once on this side (ADR 035): the load context every loader and action receives, and what the build's
// entry module (app/entry.server.tsx) gives the API dispatch. `remix dev` and Remix's own handler fill in only
// the load context's addresses; everything else here is optional or read by the dispatch alone.
import type { ApiRoutes } from "~/http/api-routes.server";

/** The request's body, at most `maxBytes` of it (past that, up to `discardBytes` read and dropped). */
export type ReadBody = (maxBytes: number, discardBytes: number) => Promise<{ bytes: Buffer } | { tooLarge: true }>;

declare module "@remix-run/node" {
  interface AppLoadContext {
    /** The client's address (server/client-address.mjs): the socket's, or X-Forwarded-For's as TRUST_PROXY says. */
    clientIp?: string;
    /** The TCP peer itself, whatever any forwarding header claims. */
    peerAddress?: string;
    /**
     * The API dispatch only (server/api-dispatch.mjs): this request's body read straight from the socket, which
     * costs a POST a tenth less than a web stream. Used up once read; app/http/body.server.ts reads through it.
     */
    readBody?: ReadBody;
  }
}

/** The entry module's `apiDispatch` export, which server/api-dispatch.mjs requires. */
export interface ApiDispatchHooks {
  /** The API's route table, made from app/routes/api.auth.* at build time. */
  routes: ApiRoutes;
  /**
   * The 429 for a client this process already refused on this path, or for a password sign-in from a browser
   * with no device cookie while the hasher is full (ADR 061), answered before any Request is built.
   */
  earlyRefusal(clientIp: string, pathname: string, cookieHeader?: string): Response | null;
  /** Milliseconds to wait before sending an early refusal: a busy hasher's is held, costing no CPU (ADR 061). */
  earlyRefusalHoldMs(response: Response): number;
  /** A response's body as text, when the app holds it as text (a TextResponse), so no stream is made to send it. */
  responseText(response: Response): string | undefined;
  /**
   * The headers of a JSON answer, written with the text of a GET loader's `fromMemory` answer
   * (app/http/endpoint.server.ts), which the dispatch asks before it makes any Request (ADR 054).
   */
  jsonHeaders: readonly (readonly [string, string])[];
}

/** The entry module's `oidcProvider` export, which server/serve.mjs asks first for every request (ADR 046). */
export interface OidcProviderHooks {
  /** Whether a path is the OpenID provider's (discovery, /api/auth/oauth2/…). */
  handles(pathname: string): boolean;
  /**
   * Answers such a request on the node objects (oidc-provider is a Koa application), after its rate limit for
   * `clientIp` (the address the server computed as for every other request).
   */
  handle(req: import("node:http").IncomingMessage, res: import("node:http").ServerResponse, clientIp: string): Promise<void>;
}

/**
 * The entry module's `health` export, which server/health.mjs asks for the readiness probe (ADR 064). Each call
 * may take as long as the dependency does: the server bounds and caches them.
 */
export interface HealthHooks {
  /** Which migration folder (prisma/migrations or prisma/postgres/migrations) this build's database follows. */
  databaseKind: "sqlite" | "postgres";
  /** `SELECT 1` through the Prisma client requests use. */
  selectOne(): Promise<void>;
  /** The names of the migrations the database has applied to the end. */
  finishedMigrations(): Promise<string[]>;
  /** A PING to REDIS_URL; null without it. */
  redisPing: (() => Promise<void>) | null;
  /** One of the above failed (`timedOut`: it got no answer in time), for the error counters. */
  countFailure(dependency: "database" | "redis", timedOut: boolean): void;
}
