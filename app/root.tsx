import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { Link, Links, Meta, Outlet, Scripts, ScrollRestoration, isRouteErrorResponse, useRouteError, useRouteLoaderData } from "@remix-run/react";
import { BrandMark } from "~/components/brand-mark";
import { useNonce } from "~/components/nonce";
import { ErrorPageViewerData, useErrorPageViewer } from "~/components/error-page-viewer";
import { ImpersonationBanner } from "~/components/impersonation-banner";
import { SignedInUser } from "~/components/signed-in-user";
import { SIGNED_OUT_ELSEWHERE, sessionEndedElsewhere } from "~/http/page-session.server";
import { viewerOf } from "~/http/viewer.server";
import stylesUrl from "~/styles.css";

export const links: LinksFunction = () => [{ rel: "stylesheet", href: stylesUrl }];
// A page that failed says so first, in its title too: "Error: Page not found · Latchkey".
export const meta: MetaFunction = ({ error }) => [{ title: error ? `Error: ${failureOf(error).title} · Latchkey` : "Latchkey" }];

/**
 * Whether a page action on this request answered with errors (pages' titles then start "Error: ", page-title.ts),
 * who is signed in, for the header, and whether this browser's session was ended elsewhere (said once, here).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const [viewer, endedElsewhere] = await Promise.all([viewerOf(request, context), sessionEndedElsewhere(request, context)]);
  return data(
    { formFailed: context.formFailed === true, viewer, signedOutElsewhere: endedElsewhere ? SIGNED_OUT_ELSEWHERE : null },
    // The ended session's cookies are cleared with the page that says so, so the next page does not repeat it.
    endedElsewhere ? { headers: endedElsewhere } : undefined,
  );
}

export function Layout({ children }: { children: React.ReactNode }) {
  const nonce = useNonce();
  // Absent on an error page the root loader did not run for (404, 405, 413, or the loader itself failed): the
  // server entry then reads who is signed in (error-page-viewer.tsx), so the banner and header stay.
  const root = useRouteLoaderData<typeof loader>("root");
  const errorPageViewer = useErrorPageViewer();
  const viewer = root ? root.viewer : errorPageViewer;
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {!root && errorPageViewer ? <ErrorPageViewerData viewer={errorPageViewer} /> : null}
        {viewer?.impersonated ? <ImpersonationBanner viewer={viewer} /> : null}
        <header className="site-header">
          <Link to="/" className="brand">
            <BrandMark />
            Latchkey
          </Link>
          <SignedInUser viewer={viewer ?? null} />
        </header>
        <main>
          {root?.signedOutElsewhere ? (
            <p className="notice" role="status" data-testid="signed-out-elsewhere">
              {root.signedOutElsewhere} <Link to="/sign-in">Sign in</Link>
            </p>
          ) : null}
          {children}
        </main>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** A failed request in words for people: what happened and what to do, by its status (never a bare "413"). */
export function failureOf(error: unknown): { title: string; text: string; retry: boolean } {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  switch (status) {
    case 400:
      return { title: "We could not read that form", text: "What was sent did not arrive whole or was not a form we know. Go back, reload the page and try again.", retry: false };
    case 403:
      return { title: "That was refused", text: "The form was sent from another site or an old copy of this one, so nothing was done. Go back, reload the page and try again.", retry: false };
    case 404:
      return { title: "Page not found", text: "There is no page at this address. Check it for typos, or start again from the home page.", retry: false };
    case 405:
      return { title: "That cannot be done here", text: "This page does not take that kind of request. Go back and use the page's own buttons and links.", retry: false };
    case 413:
      return { title: "That was too much to send", text: "The form was larger than we accept. Go back, shorten what you typed and try again.", retry: false };
    case 429:
      return { title: "Too many attempts", text: "Wait a minute, then try again.", retry: true };
    default:
      return status >= 500 || !isRouteErrorResponse(error)
        ? { title: "Something went wrong on our side", text: "It was not your fault. Try again in a moment; if it keeps happening, tell the people who run this site.", retry: true }
        : { title: "That did not work", text: "Go back and try again.", retry: false };
  }
}

export function ErrorBoundary() {
  const { title, text, retry } = failureOf(useRouteError());
  return (
    <section className="narrow" aria-labelledby="failure-heading">
      <h1 id="failure-heading">{title}</h1>
      <p>{text}</p>
      <p className="actions">
        {/* A plain link to this address: the page asked for again (a GET, never a form sent twice). */}
        {retry ? (
          <a href="" className="button-link primary">
            Try again
          </a>
        ) : null}
        <Link to="/">Return to the home page</Link>
      </p>
    </section>
  );
}
