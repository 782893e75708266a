// Remix's default Node entry (streaming, bots get the full document), plus the periodic clean-up of expired
// rows, started once when the server loads.
import { randomBytes } from "node:crypto";
import { PassThrough } from "node:stream";
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { createReadableStreamFromReadable } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import { startHousekeeping } from "~/auth/housekeeping.server";
import { backgroundWorkSettled } from "~/background-work.server";
import { promoteConfiguredAdmins, setAdminByEmail } from "~/auth/admin/bootstrap.server";
import { startRateLimiting } from "~/auth/rate-limit/limits.server";
import { preloadBreachedList } from "~/auth/password-policy/check.server";
import { NonceContext } from "~/components/nonce";
import { ErrorPageViewerContext } from "~/components/error-page-viewer";
import { viewerOf, type Viewer } from "~/http/viewer.server";
import { languageOfRequest, languageWithoutAccount, pageLanguage, type PageLanguage } from "~/i18n/i18n.server";
import { ErrorPageLanguageContext } from "~/i18n/react";
import { env } from "~/env.server";
import { apiRouteTable } from "~/http/api-routes.generated";
import { apiRoutesOf } from "~/http/api-routes.server";
import { earlyRefusal, earlyRefusalHoldMs, JSON_HEADERS } from "~/http/endpoint.server";
import type { ApiDispatchHooks, OidcProviderHooks } from "~/http/server-contract";
import { handleOidcRequest, handlesOidcPath } from "~/auth/oidc-provider/provider.server";
import { TextResponse } from "~/http/text-response.server";
import { startCountingActiveSessions } from "~/observability/active-sessions.server";
import { log } from "~/observability/log.server";
import { requestFields } from "~/observability/request-note.server";

/** The server's own refusals (server/*.mjs) as pages for browsers. */
export { refusalPage } from "~/http/error-page.server";

/** What the production dispatch (server/api-dispatch.mjs) takes from the build (app/http/server-contract.ts). */
export const apiDispatch: ApiDispatchHooks = {
  routes: apiRoutesOf(apiRouteTable),
  earlyRefusal,
  earlyRefusalHoldMs,
  responseText: TextResponse.textOf,
  jsonHeaders: JSON_HEADERS,
};

/** What the readiness probe (server/health.mjs, ADR 064) asks of the database and Redis. */
export { health } from "~/health/dependencies.server";

/** What `npm run oidc -- …` (scripts/oidc.mjs) does, through the app's own modules. */
export { addClient, ClientRegistrationError, listClients, removeClient } from "~/auth/oidc-provider/clients.server";
export { rotateSigningKeys } from "~/auth/oidc-provider/keys.server";

/** The OpenID provider's paths, which server/serve.mjs hands to it before anything else (ADR 046). */
export const oidcProvider: OidcProviderHooks = { handles: handlesOidcPath, handle: handleOidcRequest };
/**
 * Called by the server once it listens (server/serve.mjs), so after `npm start` migrated the database: accounts
 * AUTH_ADMIN_EMAILS names that are already verified become admins (ADR 049); and the breached-password list is
 * read, off the request path (ADR 056).
 */
export function afterStart(): void {
  preloadBreachedList();
  startCountingActiveSessions();
  promoteConfiguredAdmins()
    .then((count) => count && console.log(`[latchkey] AUTH_ADMIN_EMAILS: ${count} verified account(s) made admin`))
    .catch((error) => console.error("[latchkey] AUTH_ADMIN_EMAILS could not be applied at start-up:", error.message));
}

/**
 * Called by the server on SIGTERM/SIGINT once it stops taking requests (server/serve.mjs): the mails and events
 * answers already promised are sent before the process exits (within the stop's two seconds).
 */
export const beforeStop = backgroundWorkSettled;

/** What `npm run admin` (scripts/admin.mjs) calls in the built app. */
export const adminCommands = { setAdminByEmail };

const ABORT_DELAY_MS = 5_000;
startHousekeeping();
startRateLimiting();
if (env.localOutbox) console.log(`[latchkey] no SMTP_URL: mail is printed here and kept at ${new URL("/dev/outbox", env.BASE_URL).href}`);

/**
 * A mistyped address (or a post to a page that takes none) is a visitor's slip, not a fault: the request's own
 * line says so (its status and route, never the raw path, which may hold a token: ADR 062). Everything else is
 * logged in full with the request's id, except requests the visitor abandoned.
 */
export function handleError(error: unknown, { request, context }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  const notFound =
    (isRouteErrorResponse(error) && error.status === 404) || (error instanceof Error && error.message.startsWith("No route matches URL"));
  // A post to a page that takes none (405) is a visitor's (or a robot's) slip too.
  if (notFound || (isRouteErrorResponse(error) && error.status < 500)) return;
  log.error({ ...requestFields(context), err: error }, "unexpected error");
}

/**
 * Pages run only our own scripts (Remix's inline ones carry the response's nonce), load styles and fonts only
 * from here, and are never framed. Images may come from https (profile pictures) or data: (QR codes).
 * `form-action` is left out on purpose: sign-in forms redirect to identity providers, which it would block.
 */
function contentSecurityPolicy(nonce: string): string {
  const connect = env.NODE_ENV === "development" ? "'self' ws:" : "'self'";
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self'",
    "img-src 'self' https: data:",
    `connect-src ${connect}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/**
 * Who is signed in, for an error page the root loader did not run for (no route matched, a post to a page with no
 * action, an action that threw): the header and the impersonation banner still show (error-page-viewer.tsx).
 */
async function viewerForErrorPage(request: Request, remixContext: EntryContext, loadContext: AppLoadContext): Promise<Viewer | null> {
  const { errors, loaderData } = remixContext.staticHandlerContext;
  if (!errors || loaderData?.root != null) return null;
  try {
    return await viewerOf(request, loadContext);
  } catch {
    return null; // the root loader's own failure (the database away): the page shows no one, as before
  }
}

/** The language of such an error page, by the same rule as every page (the saved one unreadable: without it). */
async function languageForErrorPage(request: Request, remixContext: EntryContext, loadContext: AppLoadContext): Promise<PageLanguage | null> {
  const { errors, loaderData } = remixContext.staticHandlerContext;
  if (!errors || loaderData?.root != null) return null;
  const language = await languageOfRequest(request, loadContext).catch(() => languageWithoutAccount(request));
  return pageLanguage(language);
}

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const waitForAll = isbot(request.headers.get("user-agent") ?? "");
  const nonce = randomBytes(16).toString("base64");
  const [errorPageViewer, errorPageLanguage] = await Promise.all([
    viewerForErrorPage(request, remixContext, loadContext),
    languageForErrorPage(request, remixContext, loadContext),
  ]);
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <ErrorPageViewerContext.Provider value={errorPageViewer}>
          <ErrorPageLanguageContext.Provider value={errorPageLanguage}>
            <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY_MS} nonce={nonce} />
          </ErrorPageLanguageContext.Provider>
        </ErrorPageViewerContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        [waitForAll ? "onAllReady" : "onShellReady"]() {
          shellRendered = true;
          const body = new PassThrough();
          responseHeaders.set("Content-Type", "text/html");
          responseHeaders.set("Content-Security-Policy", contentSecurityPolicy(nonce));
          responseHeaders.set("X-Frame-Options", "DENY"); // frame-ancestors for browsers that predate it
          // Every page is about someone's account or carries a token in its URL: never kept in a cache, and
          // Back after signing out shows nothing.
          responseHeaders.set("Cache-Control", "no-store");
          resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
          pipe(body);
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) console.error(error);
        },
      },
    );
    setTimeout(abort, ABORT_DELAY_MS);
  });
}
